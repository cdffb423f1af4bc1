package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;

/**
 * Redis's inline commands (telnet, redis-cli's inline mode): a line of words separated by blanks, one argument per
 * word. The {@link RespDecoder} finds the line and enforces its length; this cuts it into words.
 */
final class InlineRequest
{
    private InlineRequest()
    {
    }

    /**
     * @param in   the input.
     * @param base index of the line's first byte.
     * @param lf   offset of the line's {@code \n} from {@code base}.
     * @return one retained slice of the input per word, or null for a blank line.
     */
    static ByteBuf[] words(final ByteBuf in, final int base, final int lf)
    {
        int words = 0;
        for (int i = 0; i < lf; i++)
        {
            if (!blank(in.getByte(base + i)) && (i == 0 || blank(in.getByte(base + i - 1))))
            {
                words++;
            }
        }
        if (words == 0)
        {
            return null;
        }
        final ByteBuf[] args = new ByteBuf[words];
        int w = 0;
        int start = -1;
        for (int i = 0; i <= lf; i++)
        {
            final boolean edge = i == lf || blank(in.getByte(base + i));
            if (edge && start >= 0)
            {
                args[w++] = in.retainedSlice(base + start, i - start);
                start = -1;
            }
            else if (!edge && start < 0)
            {
                start = i;
            }
        }
        return args;
    }

    /** Java's {@code \s}: what separated an inline command's words before. */
    private static boolean blank(final byte b)
    {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
    }
}
