package io.ddf.persistence;

import java.util.Arrays;
import java.util.Objects;

/**
 * The immutable part of a filter file's header: what the file is and how it was built.
 * Written once at creation, covered by the header checksum, read back by {@link FilterFile#open}.
 *
 * <p>The persistence layer does not interpret {@code kind}, {@code hashAlgorithm} or {@code params}: the
 * engine owns their meaning. It stores them, checksums them and hands them back unchanged.
 *
 * @param kind          filter kind code (engine-defined), non-zero.
 * @param hashAlgorithm hash algorithm code (engine-defined), non-zero.
 * @param seed          hash seed.
 * @param key           secret key of keyed hashing, exactly {@link #KEY_LENGTH} bytes, or {@code null} when unkeyed.
 *                      A keyed file is created with owner-only permissions.
 * @param params        the kind's parameters, at most {@link #MAX_PARAMS} values.
 * @param tableLength   length in bytes of the table region, a positive multiple of 64.
 */
public record FilterFileSpec(int kind, int hashAlgorithm, long seed, byte[] key, long[] params, long tableLength)
{
    /** Length of the secret key of keyed hashing. */
    public static final int KEY_LENGTH = 16;
    /** Number of parameter slots in the header. */
    public static final int MAX_PARAMS = 16;

    /**
     * Validates and defensively copies its arrays.
     */
    public FilterFileSpec
    {
        if (kind == 0)
        {
            throw new IllegalArgumentException("kind must be non-zero");
        }
        if (hashAlgorithm == 0)
        {
            throw new IllegalArgumentException("hashAlgorithm must be non-zero");
        }
        if (key != null && key.length != KEY_LENGTH)
        {
            throw new IllegalArgumentException("key must be " + KEY_LENGTH + " bytes, got " + key.length);
        }
        Objects.requireNonNull(params, "params");
        if (params.length > MAX_PARAMS)
        {
            throw new IllegalArgumentException("at most " + MAX_PARAMS + " params, got " + params.length);
        }
        if (tableLength <= 0 || (tableLength & 63) != 0)
        {
            throw new IllegalArgumentException("tableLength must be a positive multiple of 64, got " + tableLength);
        }
        key = key == null ? null : key.clone();
        params = params.clone();
    }

    /** @return whether the file uses keyed hashing. */
    public boolean keyed()
    {
        return key != null;
    }

    @Override
    public byte[] key()
    {
        return key == null ? null : key.clone();
    }

    @Override
    public long[] params()
    {
        return params.clone();
    }

    /**
     * @param index parameter slot.
     * @return the parameter in that slot, 0 when the slot was not written.
     */
    public long param(final int index)
    {
        return index < params.length ? params[index] : 0L;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof FilterFileSpec))
        {
            return false;
        }
        final FilterFileSpec that = (FilterFileSpec)o;
        return kind == that.kind && hashAlgorithm == that.hashAlgorithm && seed == that.seed &&
            tableLength == that.tableLength && Arrays.equals(key, that.key) &&
            Arrays.equals(paddedParams(), that.paddedParams());
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(kind, hashAlgorithm, seed, tableLength, Arrays.hashCode(key), Arrays.hashCode(paddedParams()));
    }

    @Override
    public String toString()
    {
        return "FilterFileSpec{kind=" + kind + ", hashAlgorithm=" + hashAlgorithm + ", seed=" + seed +
            ", keyed=" + keyed() + ", params=" + Arrays.toString(params) + ", tableLength=" + tableLength + '}';
    }

    private long[] paddedParams()
    {
        return Arrays.copyOf(params, MAX_PARAMS);
    }
}
