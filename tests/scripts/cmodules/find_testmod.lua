-- find_testmod.lua — returns the folder holding tide_testmod.so, the C
-- module the package and debug tests load (built by premake5.lua's
-- "tide_testmod" project into the bin folder). Looked for in
-- $TIDE_TEST_CMODULE_DIR, then beside the interpreter running the test
-- (arg[-1]: bin/<config>/tide-libcheck), then in bin/Debug and bin/Release
-- under the folder holding tests/ (for stock lua5.4).
--
-- A test loads it with: dofile(<its own folder> .. "/cmodules/find_testmod.lua")

local function readable(path)
    local f = io.open(path)
    if f then f:close() end
    return f ~= nil
end

local candidates = { os.getenv("TIDE_TEST_CMODULE_DIR") }
local interpreter = arg[-1]
if interpreter and interpreter:find("/") then
    candidates[#candidates + 1] = interpreter:match("^(.*)/[^/]*$")
end
local root = arg[0]:match("^(.-)/?tests/scripts/[^/]*$")
if root == nil or root == "" then root = "." end
candidates[#candidates + 1] = root .. "/bin/Debug"
candidates[#candidates + 1] = root .. "/bin/Release"
for _, dir in ipairs(candidates) do
    if readable(dir .. "/tide_testmod.so") then return dir end
end
error("tide_testmod.so not found: build the tide_testmod project " ..
      "(make -C build/default config=debug tide_testmod)", 0)
