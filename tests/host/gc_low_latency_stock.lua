-- Only libtide has a low-latency mode: asking a stock backend for it is a
-- usage error that names the backend.
-- backends: lua54 luajit
-- host-args: --gc low-latency
-- expect exit: 2
-- expect stderr: only the tide backend has a low-latency mode
-- expect stderr: usage:
function update() end
