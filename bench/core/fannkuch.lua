-- bench/core/fannkuch.lua — fannkuch-redux of the Benchmarks Game for n = 9 (four times):
-- permutations generated in place and pancake flips on small integer
-- arrays. Prints nothing; asserts the checksum and the maximum flips.

local function fannkuch(n)
    local perm, perm1, count = {}, {}, {}
    for i = 0, n - 1 do perm1[i] = i end
    local max_flips, checksum, sign = 0, 0, 1
    local r = n
    while true do
        while r ~= 1 do count[r - 1] = r; r = r - 1 end
        for i = 0, n - 1 do perm[i] = perm1[i] end
        local flips = 0
        local k = perm[0]
        while k ~= 0 do
            local i, j = 0, k
            while i < j do
                perm[i], perm[j] = perm[j], perm[i]
                i = i + 1
                j = j - 1
            end
            flips = flips + 1
            k = perm[0]
        end
        if flips > max_flips then max_flips = flips end
        checksum = checksum + sign * flips
        sign = -sign
        -- Next permutation (rotate the first r + 1 elements, count down).
        while true do
            if r == n then return checksum, max_flips end
            local first = perm1[0]
            for i = 0, r - 1 do perm1[i] = perm1[i + 1] end
            perm1[r] = first
            count[r] = count[r] - 1
            if count[r] > 0 then break end
            r = r + 1
        end
    end
end

local checksum, flips
for _ = 1, 4 do checksum, flips = fannkuch(9) end
assert(checksum .. " " .. flips == "8629 30", checksum .. " " .. flips)
