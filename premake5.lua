-- premake5.lua — the one build description of Tide.
--
--   premake5 gmake                        (premake 5.0 beta3 and later)
--   premake4 --file=premake5.lua gmake    (Debian's premake4 4.3)
--   make -C build/default config=debug    (or config=release)
--
-- Options: --sanitize=address (AddressSanitizer + UndefinedBehaviorSanitizer)
-- or --sanitize=thread; a sanitizer build goes to build/<kind>, bin/<kind>-*.
-- The file is written premake5-style; the shim below maps the few premake5
-- calls it uses onto premake4's API, and is active only under premake4.

if premake.api == nil then
    -- premake4: `workspace` is `solution`, filters are configurations, and
    -- the settings premake5 names are flags or plain compiler options.
    workspace = solution

    function filter(f)
        if type(f) == "table" then f = f[1] end
        if f == nil then
            configuration {}
            return
        end
        local cfg = f:match("^configurations:(%w+)$")
        if cfg == nil then
            error("premake4 shim: only 'configurations:X' filters are supported, got " .. f)
        end
        configuration(cfg)
    end

    function symbols(value)
        if value == "On" then flags { "Symbols" } end
    end

    function optimize(value)
        if value ~= "Off" then flags { "OptimizeSpeed" } end
    end

    function cdialect(value)
        buildoptions { "-std=" .. value:lower() }
    end

    function warnings(value)
        if value == "Extra" then buildoptions { "-Wall", "-Wextra" } end
    end
end

newoption {
    trigger = "sanitize",
    value = "KIND",
    description = "Build with sanitizers",
    allowed = {
        { "address", "AddressSanitizer and UndefinedBehaviorSanitizer" },
        { "thread", "ThreadSanitizer" },
    },
}

-- Runs pkg-config for a library the build needs; a missing library stops
-- generation with the Debian package that provides it.
local function pkg(name, debian_package, what)
    local pipe = io.popen("pkg-config --" .. what .. " " .. name .. " 2>/dev/null")
    local out = pipe:read("*a") or ""
    local ok = pipe:close()
    -- premake4's Lua 5.1 returns nothing useful from close(); an empty
    -- answer from pkg-config is the failure we can see there.
    if ok == nil or ok == false or out:match("^%s*$") then
        error("\n\nTide needs " .. name .. " (pkg-config could not find it).\n" ..
              "Install it with:  sudo apt-get install " .. debian_package .. "\n", 0)
    end
    return (out:gsub("%s+$", ""))
end

local libraries = {
    sdl2   = "libsdl2-dev",
    lua54  = "liblua5.4-dev",
    luajit = "libluajit-5.1-dev",
    stb    = "libstb-dev",
}
local pkgconfig_name = { sdl2 = "sdl2", lua54 = "lua5.4", luajit = "luajit", stb = "stb" }

local function cflags(lib) return pkg(pkgconfig_name[lib], libraries[lib], "cflags") end
local function libs(lib) return pkg(pkgconfig_name[lib], libraries[lib], "libs") end

local sanitize = _OPTIONS["sanitize"]
local variant = sanitize or "default"
local bin_prefix = sanitize and (sanitize .. "-") or ""

workspace "tide"
    configurations { "Debug", "Release" }
    location ("build/" .. variant)
    language "C"
    cdialect "C11"
    warnings "Extra"
    defines { "_POSIX_C_SOURCE=200809L" }

    filter "configurations:Debug"
        symbols "On"
        defines { "TIDE_DEBUG" }
        targetdir ("bin/" .. bin_prefix .. "Debug")
        objdir ("obj/" .. bin_prefix .. "Debug")
    filter "configurations:Release"
        symbols "On"
        optimize "Speed"
        defines { "NDEBUG" }
        targetdir ("bin/" .. bin_prefix .. "Release")
        objdir ("obj/" .. bin_prefix .. "Release")
    filter {}

    if sanitize == "address" then
        buildoptions { "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                       "-fno-omit-frame-pointer" }
        linkoptions { "-fsanitize=address,undefined" }
    elseif sanitize == "thread" then
        buildoptions { "-fsanitize=thread", "-fno-omit-frame-pointer" }
        linkoptions { "-fsanitize=thread" }
    end

-- One host per backend, from the same sources. Only backend.c looks at the
-- TIDE_HOST_BACKEND_* define.
local function host(name, backend_define, lua_lib)
    project (name)
        kind "ConsoleApp"
        files { "host/*.c", "host/*.h", "engine_bindings/*.c", "engine_bindings/*.h" }
        includedirs { "engine_bindings", "host" }
        defines { backend_define }
        buildoptions { cflags("sdl2"), cflags("stb"), "-pthread" }
        linkoptions { libs("sdl2"), libs("stb"), "-lm", "-pthread" }
        if lua_lib == "tide" then
            includedirs { "runtime/include" }
            links { "libtide", "m", "dl", "pthread" } -- system libraries after libtide
            linkoptions { "-Wl,-E" }
        else
            buildoptions { cflags(lua_lib) }
            linkoptions { libs(lua_lib) }
        end
end


-- C unit tests of the host's and the bindings' parts, built on stock Lua 5.4.
project "tide-unit-tests"
    kind "ConsoleApp"
    files { "tests/unit/*.c", "tests/unit/*.h", "engine_bindings/*.c",
            "host/recorder.c", "host/options.c" }
    includedirs { "engine_bindings", "host", "tests/unit" }
    defines { "TIDE_HOST_BACKEND_LUA54" }
    buildoptions { cflags("lua54"), cflags("stb") }
    linkoptions { libs("lua54"), libs("stb"), "-lm" }

-- C unit tests of the collector's self-contained parts (the major heap and
-- the large object space), compiled from their sources: no libtide, no Lua.
-- The driver is tide-unit-tests' own (tests/unit/main.c), helpers in gc_test.c.
project "tide-gc-unit-tests"
    kind "ConsoleApp"
    files { "tests/gc_unit/*.c", "tests/unit/main.c", "runtime/gc/major.c", "runtime/gc/los.c" }
    includedirs { "runtime/include", "runtime/gc", "tests/unit" }
    buildoptions { "-pthread" }
    linkoptions { "-pthread" }

-- Tide's standard libraries (runtime/lib) on stock Lua 5.4's core: proves
-- them against the reference core; see tests/libcheck/main.c.
project "tide-libcheck"
    kind "ConsoleApp"
    files { "runtime/lib/*.c", "runtime/lib/*.h", "tests/libcheck/main.c" }
    buildoptions { cflags("lua54") }
    linkoptions { "-Wl,-E", libs("lua54"), "-ldl", "-lm" }

-- A C module the script tests load (tests/scripts/package_cmodule.lua,
-- debug_cmodule.lua): tide_testmod.so beside the interpreters. It links no
-- Lua library; the interpreter that loads it provides the API.
project "tide_testmod"
    kind "SharedLib"
    targetprefix ""
    files { "tests/scripts/cmodules/tide_testmod.c" }
    buildoptions { cflags("lua54") }

-- The C API test pairs (tests/api/NAME.c + NAME.lua), built against stock
-- Lua 5.4, which proves their expectations; libtide must meet the same.
project "tide-api-tests"
    kind "ConsoleApp"
    files { "tests/api/*.c" }
    buildoptions { cflags("lua54") }
    linkoptions { libs("lua54"), "-lm" }

-- libtide: the runtime (runtime/vm, runtime/gc, runtime/lib) as a static
-- library (libtide-static.a), which the tide interpreter, tidehost-tide and
-- the tests link, and as a shared library, libtide.so, for embedders, which
-- exports only the API (lua_*, luaL_*, luaopen_*, tide_*: every internal
-- symbol is TIDE_INTERNAL, hidden). See runtime/README.md.
local runtime_files = { "runtime/vm/*.c", "runtime/vm/*.h", "runtime/gc/*.c", "runtime/gc/*.h",
                        "runtime/lib/*.c", "runtime/lib/*.h", "runtime/include/*.h" }

project "libtide"
    kind "StaticLib"
    targetname "tide-static" -- libtide-static.a: not found by -ltide, which means the .so
    files (runtime_files)
    includedirs { "runtime/include", "runtime/vm" }
    buildoptions { "-pthread" }

project "libtide-shared"
    kind "SharedLib"
    targetname "tide"
    files (runtime_files)
    includedirs { "runtime/include", "runtime/vm" }
    buildoptions { "-fvisibility=hidden", "-pthread" }
    linkoptions { "-lm", "-ldl", "-pthread" }

-- The stand-alone interpreter, like lua5.4. -Wl,-E exports the API from the
-- executable so that C modules loaded through package.cpath find it.
project "tide"
    kind "ConsoleApp"
    files { "runtime/cli/*.c" }
    includedirs { "runtime/include" }
    links { "libtide", "m", "dl", "pthread" } -- system libraries after libtide
    linkoptions { "-Wl,-E", "-pthread" }

-- The three hosts, from the same sources.
host("tidehost-lua54", "TIDE_HOST_BACKEND_LUA54", "lua54")
host("tidehost-luajit", "TIDE_HOST_BACKEND_LUAJIT", "luajit")
host("tidehost-tide", "TIDE_HOST_BACKEND_TIDE", "tide")

-- The C API test pairs again, built against libtide's headers and library.
project "tide-api-tests-tide"
    kind "ConsoleApp"
    files { "tests/api/*.c", "tests/api/tide/*.c" }
    defines { "TIDE_API_TESTS_LIBTIDE" }
    includedirs { "runtime/include" }
    links { "libtide", "m", "dl", "pthread" }
    linkoptions { "-Wl,-E", "-pthread" }
