-- tests/tide_cli_cases.lua — the cases of the "tide-cli" suite (tests/run.lua).
--
-- Each case runs `tide ARGS` in a fresh scratch directory holding [files],
-- with LUA_INIT, LUA_INIT_5_4, LUA_PATH, LUA_PATH_5_4, LUA_CPATH and
-- LUA_CPATH_5_4 removed from the environment and then [env] added, and
-- with [stdin] (default: empty) as standard input. Fields:
--   name        what the case shows
--   args        the command-line arguments (a list of strings)
--   stdin, env, files   as above (files: name -> content)
--   exit        the exit status (default 0)
--   stdout      exact standard output, or
--   stdout_has  a list of strings stdout contains
--   stderr      exact standard error (default: not checked), or
--   stderr_has  a list of strings stderr contains
--   no_stderr   stderr must be empty
--   oracle      false: Tide-specific, not run on lua5.4. Otherwise the case
--               also runs on stock lua5.4 with the same expectations, and
--               both must print the same stdout and stderr (modulo the
--               program name), unless same = false.
-- "PROG" in any expected text stands for the program's name as invoked
-- (argv[0]): "lua5.4: ..." from stock Lua is "PROG: ..." here.

local USAGE = "usage: PROG [options] [script [args]]"

return {
    -- Options and usage errors ------------------------------------------
    { name = "unknown option", args = { "-x" }, exit = 1, same = false,
      stderr_has = { "PROG: unrecognized option '-x'", USAGE, "-e stat" } },
    { name = "option with extra characters", args = { "-vx" }, exit = 1, same = false,
      stderr_has = { "PROG: unrecognized option '-vx'", USAGE } },
    { name = "unknown long option", args = { "--nope" }, exit = 1, same = false,
      stderr_has = { "PROG: unrecognized option '--nope'" } },
    { name = "-e without argument", args = { "-e" }, exit = 1, same = false,
      stderr_has = { "PROG: '-e' needs argument", USAGE } },
    { name = "-l followed by an option", args = { "-l", "-e", "x=1" }, exit = 1, same = false,
      stderr_has = { "PROG: '-l' needs argument" } },
    { name = "-e runs in order", args = { "-e", "io.write('a')", "-e", "print('b')" },
      stdout = "ab\n", no_stderr = true },
    { name = "-e glued to its code", args = { "-eprint(1+1)" }, stdout = "2\n" },
    { name = "_VERSION", args = { "-e", "print(_VERSION)" }, stdout = "Lua 5.4\n" },
    { name = "-v prints Tide's version", args = { "-v" }, oracle = false,
      stdout_has = { "Tide" }, no_stderr = true },
    { name = "-v comes before -e", args = { "-e", "print('after')", "-v" }, same = false,
      stdout_has = { "Copyright", "\nafter\n" } },
    { name = "-W turns warnings on where it stands",
      args = { "-e", "warn('hidden')", "-W", "-e", "warn('shown')" },
      stderr = "Lua warning: shown\n" },
    { name = "warnings off by default", args = { "-e", "warn('x')" }, stderr = "" },

    -- Errors ----------------------------------------------------------------
    { name = "runtime error with traceback", args = { "-e", "error('boom')" }, exit = 1,
      stderr_has = { "PROG: (command line):1: boom\nstack traceback:\n", "in main chunk" } },
    { name = "syntax error", args = { "-e", "x=" }, exit = 1,
      stderr = "PROG: (command line):1: unexpected symbol near <eof>\n" },
    { name = "table error value", args = { "-e", "error({})" }, exit = 1,
      stderr_has = { "PROG: (error object is a table value)\nstack traceback:" } },
    { name = "nil error value", args = { "-e", "error(nil)" }, exit = 1,
      stderr_has = { "PROG: (error object is a nil value)" } },
    { name = "number error value", args = { "-e", "error(42)" }, exit = 1,
      stderr_has = { "PROG: 42\nstack traceback:" } },
    { name = "error value with __tostring",
      args = { "-e", "error(setmetatable({}, {__tostring = function() return 'custom' end}))" },
      exit = 1, stderr = "PROG: custom\n" },
    { name = "__tostring returning a non-string",
      args = { "-e", "error(setmetatable({}, {__tostring = function() return 1 end}))" },
      exit = 1, stderr_has = { "PROG: (error object is a table value)" } },
    { name = "missing script", args = { "no-such-script.lua" }, exit = 1,
      stderr = "PROG: cannot open no-such-script.lua: No such file or directory\n" },
    { name = "script syntax error", args = { "bad.lua" }, files = { ["bad.lua"] = "x x" }, exit = 1,
      stderr = "PROG: bad.lua:1: syntax error near 'x'\n" },
    { name = "later options do not run after an error", args = { "-e", "error('first')", "-e", "print(2)" },
      exit = 1, stdout = "" },
    { name = "os.exit status", args = { "-e", "os.exit(3)" }, exit = 3 },
    { name = "os.exit(false)", args = { "-e", "os.exit(false)" }, exit = 1 },
    { name = "error in a coroutine", args = { "-e", "coroutine.wrap(function() error('in co') end)()" },
      exit = 1, stderr_has = { "PROG: (command line):1: (command line):1: in co\nstack traceback:" } },

    -- Scripts, arg and ... ----------------------------------------------------
    { name = "script arguments and arg table", args = { "-W", "s.lua", "a", "b" },
      files = { ["s.lua"] = "print(select('#', ...), ...)\nfor i = -1, 3 do print(i, arg[i]) end\n" },
      stdout = "2\ta\tb\n-1\t-W\n0\ts.lua\n1\ta\n2\tb\n3\tnil\n" },
    { name = "the interpreter is the lowest arg index", args = { "-W", "s.lua" },
      files = { ["s.lua"] = "print(arg[-2], arg[-3], #arg)" }, stdout = "PROG\tnil\t0\n" },
    { name = "no script: options at positive indices", args = { "-e", "print(#arg, arg[1], arg[2])" },
      stdout = "2\t-e\tprint(#arg, arg[1], arg[2])\n" },
    { name = "-- ends options", args = { "--", "s.lua", "-x" },
      files = { ["s.lua"] = "print(..., arg[-1])" }, stdout = "-x\t--\n" },
    { name = "options after the script are its arguments", args = { "s.lua", "-e", "x" },
      files = { ["s.lua"] = "print(...)" }, stdout = "-e\tx\n" },
    { name = "- runs stdin with arguments", args = { "-", "a", "b" },
      stdin = "print(arg[0], ...)", stdout = "-\ta\tb\n" },
    { name = "-- - opens a file named -", args = { "--", "-" }, exit = 1,
      stderr = "PROG: cannot open -: No such file or directory\n" },
    { name = "stdin runs when there is no script", stdin = "print('from stdin', ...)",
      stdout = "from stdin\n" },
    { name = "-- alone runs stdin", args = { "--" }, stdin = "print(1)", stdout = "1\n" },
    -- Stock lua5.4 ignores the status of stdin run this way and exits 0;
    -- Tide exits 1, as for any script that fails.
    { name = "stdin error", stdin = "error('x')", exit = 1, oracle = false,
      stderr_has = { "PROG: stdin:1: x\nstack traceback:" } },
    { name = "-e disables reading stdin", args = { "-e", "print(1)" }, stdin = "print(2)",
      stdout = "1\n" },
    { name = "script error traceback", args = { "s.lua" },
      files = { ["s.lua"] = "local function f() error('deep') end\nf()\n" }, exit = 1,
      stderr_has = { "PROG: s.lua:1: deep\nstack traceback:\n", "s.lua:2: in main chunk" } },
    { name = "-e sees a changed arg", args = { "-e", "arg = {'z'}", "s.lua", "a" },
      files = { ["s.lua"] = "print(...)" }, stdout = "z\n" },
    { name = "arg replaced by a non-table", args = { "-e", "arg = 1", "s.lua" },
      files = { ["s.lua"] = "" }, exit = 1, stderr_has = { "PROG: 'arg' is not a table" } },

    -- -l ------------------------------------------------------------------------
    { name = "-l mod", args = { "-l", "m", "-e", "print(m.v)" },
      files = { ["m.lua"] = "print('loading', ...) return { v = 42 }" },
      stdout = "loading\tm\t./m.lua\n42\n" },
    { name = "-lmod glued", args = { "-lm", "-e", "print(m.v)" },
      files = { ["m.lua"] = "return { v = 1 }" }, stdout = "1\n" },
    { name = "-l g=mod", args = { "-l", "g=m", "-e", "print(g.v, m)" },
      files = { ["m.lua"] = "return { v = 7 }" }, stdout = "7\tnil\n" },
    -- Lua 5.4.6 drops a "-suffix" from the global's name; Debian's 5.4.4 does not.
    { name = "-l mod-suffix", args = { "-l", "m-v2", "-e", "print(m)" }, oracle = false,
      files = { ["m-v2.lua"] = "return 'v2'" }, stdout = "v2\n" },
    { name = "-l missing module", args = { "-e", "print(1)", "-l", "nosuch", "-e", "print(2)" },
      exit = 1, stdout = "1\n",
      stderr_has = { "PROG: module 'nosuch' not found:", "no field package.preload['nosuch']" } },

    -- Environment ---------------------------------------------------------------
    { name = "LUA_INIT chunk", env = { LUA_INIT = "print('init')" }, args = { "-e", "print(1)" },
      stdout = "init\n1\n" },
    { name = "LUA_INIT_5_4 wins", env = { LUA_INIT = "print('plain')", LUA_INIT_5_4 = "print('5.4')" },
      args = { "-e", "" }, stdout = "5.4\n" },
    { name = "LUA_INIT @file", env = { LUA_INIT = "@init.lua" }, args = { "-e", "" },
      files = { ["init.lua"] = "print('from file', ...)" }, stdout = "from file\n" },
    { name = "LUA_INIT @missing file", env = { LUA_INIT = "@missing.lua" }, args = { "-e", "print(1)" },
      exit = 1, stdout = "", stderr = "PROG: cannot open missing.lua: No such file or directory\n" },
    { name = "LUA_INIT error", env = { LUA_INIT = "error('x')" }, args = { "-e", "" }, exit = 1,
      stderr_has = { "PROG: LUA_INIT:1: x\nstack traceback:" } },
    { name = "-E ignores LUA_INIT", env = { LUA_INIT = "print('init')" }, args = { "-E", "-e", "print(2)" },
      stdout = "2\n" },
    { name = "LUA_PATH sets package.path", env = { LUA_PATH = "foo/?.lua" },
      args = { "-e", "print(package.path)" }, stdout = "foo/?.lua\n" },
    { name = "-E ignores LUA_PATH", env = { LUA_PATH = "foo/?.lua", LUA_CPATH = "bar/?.so" },
      args = { "-E", "-e", "print(package.path:find('foo', 1, true), package.cpath:find('bar', 1, true))" },
      stdout = "nil\tnil\n" },

    -- The REPL (Tide reads plain lines: stock lua5.4's readline echoes them) --
    { name = "REPL prints expressions", args = { "-i" }, oracle = false,
      stdin = "1+1\nx = 5\nx, x * 2\n=x\nprint(nil)\nnil\n",
      stdout_has = { "> 2\n> > 5\t10\n> 5\n> nil\n> nil\n> \n" } },
    { name = "REPL continues incomplete statements", args = { "-i" }, oracle = false,
      stdin = "function f()\nreturn 7\nend\nf()\n",
      stdout_has = { "> >> >> > 7\n> \n" } },
    { name = "REPL errors have no prefix", args = { "-i" }, oracle = false,
      stdin = "error('e')\nerror({})\n",
      stderr_has = { "stdin:1: e\nstack traceback:", "\n(error object is a table value)\n" } },
    { name = "REPL prompts from _PROMPT and _PROMPT2", args = { "-i" }, oracle = false,
      stdin = "_PROMPT = 'P$ ' _PROMPT2 = 42\nlocal a =\n1 print(a)\n",
      stdout_has = { "> P$ 421\nP$ \n" } },
    { name = "REPL after -e keeps globals", args = { "-i", "-e", "x = 10" }, oracle = false,
      stdin = "x + 1\n", stdout_has = { "Tide", "\n> 11\n> \n" } },
    { name = "REPL input ending inside a statement", args = { "-i" }, oracle = false,
      stdin = "for i = 1,\n", stderr_has = { "stdin:1: unexpected symbol near <eof>" } },
    { name = "REPL print replaced", args = { "-i" }, oracle = false,
      stdin = "print = nil\n3\n", stderr_has = { "error calling 'print' (attempt to call a nil value)" } },
    { name = "-i after a failing script exits", args = { "-i", "bad.lua" }, same = false,
      files = { ["bad.lua"] = "error('no')" }, stdin = "print('never')\n", exit = 1,
      stderr_has = { "PROG: bad.lua:1: no" } },

    -- Signals ---------------------------------------------------------------------
    -- The script signals itself from a background shell ($PPID is the
    -- interpreter), so the signal cannot arrive before the script runs.
    { name = "Ctrl-C interrupts a loop",
      args = { "-e", "os.execute('(sleep 0.2; kill -INT $PPID) &') while true do end" },
      exit = 1, stderr_has = { "PROG: interrupted!\nstack traceback:", "in main chunk" } },

    -- Tide extension: --memory-limit ------------------------------------------------
    { name = "memory limit stops a growing table", oracle = false,
      args = { "--memory-limit", "8M", "-e", "local t = {} for i = 1, 1e8 do t[i] = {} end" },
      exit = 1, stderr_has = { "PROG: not enough memory" } },
    { name = "memory limit error is catchable", oracle = false,
      args = { "--memory-limit=8M", "-e", [[
local ok, e = pcall(function() local t = {} for i = 1, 1e8 do t[i] = i end end)
print(ok, e)
collectgarbage()
print(collectgarbage('count') < 8 * 1024)]] },
      stdout = "false\tnot enough memory\ntrue\n" },
    { name = "memory limit: big string", oracle = false,
      args = { "--memory-limit", "4M", "-e", "local s = ('x'):rep(8 << 20)" },
      exit = 1, stderr_has = { "not enough memory" } },
    { name = "memory limit large enough", oracle = false,
      args = { "--memory-limit", "64M", "-e", "local t = {} for i = 1, 1e5 do t[i] = {} end print(#t)" },
      stdout = "100000\n" },
    { name = "memory limit needs a value", oracle = false, args = { "--memory-limit" }, exit = 1,
      stderr_has = { "--memory-limit", USAGE } },
    { name = "memory limit malformed", oracle = false, args = { "--memory-limit", "lots" }, exit = 1,
      stderr_has = { "'lots'", USAGE } },
    { name = "memory limit is an option in arg", oracle = false,
      args = { "--memory-limit", "64M", "s.lua" }, files = { ["s.lua"] = "print(arg[-2], arg[-1])" },
      stdout = "--memory-limit\t64M\n" },
}
