-- requires: engine
-- An error the script does not catch stops the run with the message.
local engine = require("engine")

print("before")  -- expect: before
engine.key_down("bogus")
-- expect error: bad argument #1 to 'engine.key_down' (unknown key 'bogus')
