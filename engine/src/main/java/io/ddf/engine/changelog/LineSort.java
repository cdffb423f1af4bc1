package io.ddf.engine.changelog;

/**
 * A stable least-significant-digit radix sort of entries (an int line, a long payload) by line, over two pairs of
 * arrays allocated once: one pass reads the lines and counts every digit, then each digit's pass scatters the entries
 * from one pair into the other, keeping the order of entries with equal digits, so that entries of one line keep
 * their order (the replay's exactness rests on it: {@link ReplayLines}). Only the bits in which the chunk's lines
 * differ are sorted, in digits of at most {@link #MAX_DIGIT_BITS} bits (2048 buckets: their write positions stay in
 * the 1 MiB L2 of the machine measured); {@code sortBits} below that sorts on the top bits alone (a partition into
 * buckets of lines, each bucket in log order).
 */
final class LineSort
{
    /** Widest digit of a pass. */
    static final int MAX_DIGIT_BITS = 11;
    private static final int MAX_PASSES = (Integer.SIZE + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;

    private final int[][] lines;
    private final long[][] payloads;
    private final int[] counts = new int[MAX_PASSES << MAX_DIGIT_BITS];
    private int current;

    /** Entries of the arrays' first allocation: a replay of a few records allocates a few KiB. */
    private static final int FIRST_CAPACITY = 1 << 12;

    private final int limit;

    /**
     * @param limit most entries sorted at once: the arrays grow to it as a chunk's entries need (a filter with few
     *              records in the log allocates little), by doubling.
     */
    LineSort(final int limit)
    {
        this.limit = limit;
        final int capacity = Math.min(limit, FIRST_CAPACITY);
        lines = new int[][] {new int[capacity], new int[0]};
        payloads = new long[][] {new long[capacity], new long[0]};
    }

    /** @return the lines the next entries are written into, and {@link #sort} leaves sorted. */
    int[] lines()
    {
        return lines[current];
    }

    /** @return the payloads beside {@link #lines()}. */
    long[] payloads()
    {
        return payloads[current];
    }

    /**
     * Makes room for {@code needed} entries in {@link #lines()} and {@link #payloads()} (at most the limit), keeping
     * those written.
     *
     * @param needed the entries to make room for.
     */
    void grow(final int needed)
    {
        final int capacity = (int)Math.min(limit, Math.max(needed, 2L * lines[current].length));
        lines[current] = java.util.Arrays.copyOf(lines[current], capacity);
        payloads[current] = java.util.Arrays.copyOf(payloads[current], capacity);
    }

    /**
     * Sorts entries [0, size) of {@link #lines()} and {@link #payloads()} stably by line (on the top
     * {@code sortBits} bits of the range of lines they span); afterwards {@link #lines()} and {@link #payloads()}
     * are the sorted arrays.
     *
     * @param size     the entries.
     * @param sortBits most bits sorted on, from the top of the chunk's range (32: all, a full sort by line).
     */
    void sort(final int size, final int sortBits)
    {
        if (size < 2)
        {
            return;
        }
        final int[] keys = lines[current];
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < size; i++)
        {
            min = Math.min(min, keys[i]);
            max = Math.max(max, keys[i]);
        }
        final int bits = Integer.SIZE - Integer.numberOfLeadingZeros(max - min);
        final int low = Math.max(0, bits - sortBits);
        if (bits <= low)
        {
            return; // one line, or too few bits asked: in log order already
        }
        if (lines[current ^ 1].length < size)
        {
            lines[current ^ 1] = new int[lines[current].length];
            payloads[current ^ 1] = new long[lines[current].length];
        }
        final int passes = (bits - low + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
        final int width = (bits - low + passes - 1) / passes;
        count(keys, size, min, low, passes, width);
        for (int pass = 0; pass < passes; pass++)
        {
            scatter(size, min, low + pass * width, width, pass << MAX_DIGIT_BITS);
        }
    }

    /** One read of the lines: every pass's digit counts, turned into the digits' first positions. */
    private void count(final int[] keys, final int size, final int min, final int low, final int passes,
        final int width)
    {
        final int mask = (1 << width) - 1;
        java.util.Arrays.fill(counts, 0, passes << MAX_DIGIT_BITS, 0);
        for (int i = 0; i < size; i++)
        {
            final int key = keys[i] - min >>> low;
            for (int pass = 0; pass < passes; pass++)
            {
                counts[(pass << MAX_DIGIT_BITS) + (key >>> pass * width & mask)]++;
            }
        }
        for (int pass = 0; pass < passes; pass++)
        {
            int at = 0;
            final int base = pass << MAX_DIGIT_BITS;
            for (int digit = 0; digit <= mask; digit++)
            {
                final int n = counts[base + digit];
                counts[base + digit] = at;
                at += n;
            }
        }
    }

    /** One pass: entries from the current pair into the other, by the digit at {@code shift}, in order. */
    private void scatter(final int size, final int min, final int shift, final int width, final int base)
    {
        final int mask = (1 << width) - 1;
        final int[] fromLines = lines[current];
        final long[] fromPayloads = payloads[current];
        final int[] toLines = lines[current ^ 1];
        final long[] toPayloads = payloads[current ^ 1];
        for (int i = 0; i < size; i++)
        {
            final int line = fromLines[i];
            final int at = counts[base + (line - min >>> shift & mask)]++;
            toLines[at] = line;
            toPayloads[at] = fromPayloads[i];
        }
        current ^= 1;
    }
}
