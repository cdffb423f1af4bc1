package io.ddf.ingest.redisbloom;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Numbers and words of a command's arguments, read as Redis modules read them ({@code RedisModule_StringToLongLong},
 * {@code RedisModule_StringToDouble}, {@code RMUtil_ArgIndex}, the first letters {@code rebloom.c} switches on),
 * for arguments as the decoder left them ({@link ByteBuf}, not consumed) or as copies ({@code byte[]}).
 */
final class Arguments
{
    private Arguments()
    {
    }

    /**
     * @param arg an argument.
     * @return it as a signed 64-bit integer, or null when it is not one (Redis's strict decimal form).
     */
    static Long integer(final byte[] arg)
    {
        return arg.length == 0 || arg.length > 20 ? null : integer(new String(arg, StandardCharsets.US_ASCII));
    }

    /**
     * @param arg an argument (not consumed).
     * @return it as a signed 64-bit integer, or null when it is not one (Redis's strict decimal form).
     */
    static Long integer(final ByteBuf arg)
    {
        final int length = arg.readableBytes();
        return length == 0 || length > 20 ? null : integer(arg.toString(StandardCharsets.US_ASCII));
    }

    private static Long integer(final String text)
    {
        if (text.startsWith("+") || text.length() > 1 && (text.startsWith("0") || text.startsWith("-0")))
        {
            return null;
        }
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    /**
     * @param arg an argument (not consumed).
     * @return it as a double, or null when it is not a number (or is NaN), as {@code RedisModule_StringToDouble}.
     */
    static Double real(final ByteBuf arg)
    {
        final int length = arg.readableBytes();
        if (length == 0 || length > 64)
        {
            return null;
        }
        final String text = arg.toString(StandardCharsets.US_ASCII);
        switch (text.toLowerCase(java.util.Locale.ROOT))
        {
            case "inf", "+inf", "infinity", "+infinity" ->
            {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" ->
            {
                return Double.NEGATIVE_INFINITY;
            }
            default ->
            {
                // a number, below
            }
        }
        // strtold's form: Java's own suffixes (1.5d, 2f) and blanks around the number are no number there
        if (Character.isWhitespace(text.charAt(0)) || Character.isWhitespace(text.charAt(text.length() - 1)) ||
            text.endsWith("d") || text.endsWith("D") || text.endsWith("f") || text.endsWith("F"))
        {
            return null;
        }
        try
        {
            final double value = Double.parseDouble(text);
            return Double.isNaN(value) ? null : value;
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    /**
     * @param arg  an argument.
     * @param word a word.
     * @return whether the argument is the word, any case.
     */
    static boolean is(final byte[] arg, final String word)
    {
        return new String(arg, StandardCharsets.ISO_8859_1).equalsIgnoreCase(word);
    }

    /**
     * @param arg  an argument (not consumed).
     * @param word a word of ASCII letters.
     * @return whether the argument is the word, any case.
     */
    static boolean is(final ByteBuf arg, final String word)
    {
        if (arg.readableBytes() != word.length())
        {
            return false;
        }
        for (int i = 0; i < word.length(); i++)
        {
            if (charAt(arg, i) != Character.toLowerCase(word.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param args the arguments.
     * @param from where to start looking.
     * @param word a word.
     * @return the index of the first argument from {@code from} on equal to it (any case), or -1. RedisBloom looks
     *         from the key on ({@code RMUtil_ArgIndex} over {@code argv + 1}), so a key spelled as an option word
     *         counts: its callers pass 1.
     */
    static int indexOf(final ByteBuf[] args, final int from, final String word)
    {
        for (int i = from; i < args.length; i++)
        {
            if (is(args[i], word))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param arg   an argument (not consumed).
     * @param index a position in it.
     * @return its byte there, lower case, or 0 past its end (C's terminating NUL, which {@code rebloom.c} reads for
     *         a word shorter than it looks).
     */
    static char charAt(final ByteBuf arg, final int index)
    {
        return index >= arg.readableBytes() ? 0 :
            Character.toLowerCase((char)(arg.getByte(arg.readerIndex() + index) & 0xFF));
    }

    /**
     * @param arg an argument.
     * @return it as text, one char per byte (a key, a kind's name).
     */
    static String text(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.ISO_8859_1);
    }
}
