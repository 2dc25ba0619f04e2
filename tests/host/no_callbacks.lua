-- Neither update nor draw is defined: the frames still run and are recorded.
-- host-args: --frames 10 --quiet
-- expect report rows: 10
-- expect: loaded
print("loaded")
