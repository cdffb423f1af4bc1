package io.ddf.engine.hash;

/** Encodes text to UTF-8 into a caller's array, without allocating; lone surrogates become '?' as in the JDK. */
final class Utf8
{
    private Utf8()
    {
    }

    /**
     * @param text  the text.
     * @param out   receives the bytes; at least 3 bytes per char.
     * @return the number of bytes written.
     */
    static int encode(final CharSequence text, final byte[] out)
    {
        final int length = text.length();
        int pos = 0;
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            if (c < 0x80)
            {
                out[pos++] = (byte)c;
            }
            else if (c < 0x800)
            {
                out[pos++] = (byte)(0xC0 | (c >> 6));
                out[pos++] = (byte)(0x80 | (c & 0x3F));
            }
            else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                final int cp = Character.toCodePoint(c, text.charAt(++i));
                out[pos++] = (byte)(0xF0 | (cp >> 18));
                out[pos++] = (byte)(0x80 | ((cp >> 12) & 0x3F));
                out[pos++] = (byte)(0x80 | ((cp >> 6) & 0x3F));
                out[pos++] = (byte)(0x80 | (cp & 0x3F));
            }
            else if (Character.isSurrogate(c))
            {
                out[pos++] = (byte)'?';
            }
            else
            {
                out[pos++] = (byte)(0xE0 | (c >> 12));
                out[pos++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                out[pos++] = (byte)(0x80 | (c & 0x3F));
            }
        }
        return pos;
    }
}
