package io.ddf.engine;

import io.ddf.engine.hash.ElementHasher;

/** The hash functions a filter file may name in its header. */
public enum HashAlgorithm
{
    /** XXH3 64-bit, seeded from the header (zero-allocation-hashing). */
    XXH3(ElementHasher.XXH3, "xxh3-64"),
    /** SipHash-2-4 under the header's secret 128-bit key: a keyed PRF for adversarial streams. */
    SIPHASH24_KEYED(ElementHasher.SIPHASH24_KEYED, "siphash-2-4 (keyed)");

    private final int code;
    private final String displayName;

    HashAlgorithm(final int code, final String displayName)
    {
        this.code = code;
        this.displayName = displayName;
    }

    /** @return the code stored in a file header. */
    public int code()
    {
        return code;
    }

    /** @return a human-readable name. */
    public String displayName()
    {
        return displayName;
    }

    /**
     * @param code a header code.
     * @return the algorithm.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static HashAlgorithm fromCode(final int code)
    {
        for (final HashAlgorithm algorithm : values())
        {
            if (algorithm.code == code)
            {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("unknown hash algorithm code " + code);
    }
}
