-- An error value that is not a string is still reported, by its type.
-- host-args: --frames 10 --quiet
-- expect exit: 1
-- expect report rows: 0
-- expect stderr: (error object is a table value)
-- expect stderr: stack traceback:
function update()
    error({ code = 42 })
end
