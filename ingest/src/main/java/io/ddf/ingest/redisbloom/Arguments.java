package io.ddf.ingest.redisbloom;

import java.nio.charset.StandardCharsets;

/** Numbers and words of a command's arguments, read as Redis modules read them. */
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
        if (arg.length == 0 || arg.length > 20)
        {
            return null;
        }
        final String text = new String(arg, StandardCharsets.US_ASCII);
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
     * @param arg an argument.
     * @return it as a double, or null when it is not a number (or is NaN), as {@code RedisModule_StringToDouble}.
     */
    static Double real(final byte[] arg)
    {
        if (arg.length == 0 || arg.length > 64)
        {
            return null;
        }
        final String text = new String(arg, StandardCharsets.US_ASCII);
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
            return switch (text.toLowerCase(java.util.Locale.ROOT))
            {
                case "inf", "+inf", "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
                case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
                default -> null;
            };
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
     * @param args the arguments.
     * @param word a word.
     * @return the index of the first argument equal to it (any case), the key included (as RedisBloom looks, so a
     *         key spelled as an option word counts), or -1.
     */
    static int indexOf(final byte[][] args, final String word)
    {
        for (int i = 1; i < args.length; i++)
        {
            if (is(args[i], word))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param arg an argument.
     * @return its first character, lowercase (0 for an empty one).
     */
    static char first(final byte[] arg)
    {
        return arg.length == 0 ? 0 : Character.toLowerCase((char)(arg[0] & 0xFF));
    }
}
