-- LuaJIT has no generational collector: asking for it is a usage error.
-- backends: luajit
-- host-args: --gc generational
-- expect exit: 2
-- expect stderr: no generational collector
-- expect stderr: usage:
function update() end
