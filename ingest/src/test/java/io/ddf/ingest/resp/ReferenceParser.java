package io.ddf.ingest.resp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What {@link RespDecoder} must read, written as plainly as possible over the whole input at once (no state kept
 * between reads, no buffers): the commands, each as its list of arguments, then the error that stops the input, if
 * any. An authenticated client and no input budget.
 */
final class ReferenceParser
{
    private static final Pattern LENGTH = Pattern.compile("-?[0-9]{1,18}\r");

    private final byte[] in;
    private final int maxInline;
    private final int maxArgs;
    private final int maxBulk;
    private final long maxRequest;
    private final List<String> out = new ArrayList<>();

    private ReferenceParser(final byte[] in, final int maxInline, final int maxArgs, final int maxBulk,
        final long maxRequest)
    {
        this.in = in;
        this.maxInline = maxInline;
        this.maxArgs = maxArgs;
        this.maxBulk = maxBulk;
        this.maxRequest = maxRequest;
    }

    static List<String> parse(final byte[] in, final int maxInline, final int maxArgs, final int maxBulk,
        final long maxRequest)
    {
        final ReferenceParser parser = new ReferenceParser(in, maxInline, maxArgs, maxBulk, maxRequest);
        try
        {
            parser.run();
        }
        catch (final Refused e)
        {
            parser.out.add("ERR " + e.getMessage());
        }
        return parser.out;
    }

    /** The input ends mid-request. */
    private static final class Incomplete extends Exception
    {
        private static final long serialVersionUID = 1L;
    }

    private static final class Refused extends Exception
    {
        private static final long serialVersionUID = 1L;

        Refused(final String message)
        {
            super(message);
        }
    }

    private void run() throws Refused
    {
        int i = 0;
        try
        {
            while (i < in.length)
            {
                final byte first = in[i];
                if (first == '*')
                {
                    i = multibulk(i);
                }
                else if (first == '+' || first == '-' || first == ':' || first == '$')
                {
                    throw new Refused("Protocol error: expected a command (an array of bulk strings)");
                }
                else
                {
                    final int lf = line(i, "inline request");
                    final String text = new String(in, i, lf - i, StandardCharsets.ISO_8859_1).strip();
                    if (!text.isEmpty())
                    {
                        // Java's \s and strip agree on these ASCII blanks; ISO-8859-1 maps byte to char one to one
                        final List<String> words = new ArrayList<>();
                        for (final String w : text.split("[ \t\n\u000B\f\r]+"))
                        {
                            words.add(w);
                        }
                        out.add(words.toString());
                    }
                    i = lf + 1;
                }
            }
        }
        catch (final Incomplete e)
        {
            // what is not yet whole is not read
        }
    }

    private int multibulk(final int at) throws Refused, Incomplete
    {
        final int lf = line(at, "multibulk count string");
        final long count = length(at + 1, lf);
        if (count < -1)
        {
            throw new Refused("Protocol error: invalid multibulk length");
        }
        if (count <= 0)
        {
            return lf + 1;
        }
        if (count > maxArgs)
        {
            throw new Refused("Protocol error: invalid multibulk length (more than " + maxArgs + " arguments)");
        }
        int p = lf + 1;
        long total = 0;
        final List<String> args = new ArrayList<>();
        for (int a = 0; a < count; a++)
        {
            if (p >= in.length)
            {
                throw new Incomplete();
            }
            if (in[p] != '$')
            {
                throw new Refused(in[p] == '*' ? "Protocol error: expected '$', got '*'" :
                    "Protocol error: expected '$'");
            }
            final int end = line(p, "bulk count string");
            final long length = length(p + 1, end);
            if (length == -1)
            {
                throw new Refused("Protocol error: expected '$'");
            }
            if (length < 0)
            {
                throw new Refused("Protocol error: invalid bulk length");
            }
            if (length > maxBulk)
            {
                throw new Refused("Protocol error: invalid bulk length (longer than " + maxBulk +
                    " bytes, --max-bulk-bytes)");
            }
            total += length;
            if (total > maxRequest)
            {
                throw new Refused("command larger than the limit of " + maxRequest + " bytes (--max-request-bytes)");
            }
            p = end + 1;
            if (in.length - p < length + 2)
            {
                throw new Incomplete();
            }
            if (in[p + (int)length] != '\r' || in[p + (int)length + 1] != '\n')
            {
                throw new Refused("Protocol error: expected CRLF after a bulk string");
            }
            args.add(new String(in, p, (int)length, StandardCharsets.ISO_8859_1));
            p += (int)length + 2;
        }
        out.add(args.toString());
        return p;
    }

    /** @return the index of the {@code \n} ending the line starting at {@code at}. */
    private int line(final int at, final String what) throws Refused, Incomplete
    {
        int lf = at;
        while (lf < in.length && in[lf] != '\n')
        {
            lf++;
        }
        if (lf - at > maxInline)
        {
            throw new Refused("Protocol error: too big " + what + " (more than " + maxInline +
                " bytes)");
        }
        if (lf == in.length)
        {
            throw new Incomplete();
        }
        return lf;
    }

    /** @return the number between {@code from} and the {@code \r\n} at {@code lf}, or Long.MIN_VALUE. */
    private long length(final int from, final int lf)
    {
        final String text = new String(in, from, lf - from, StandardCharsets.ISO_8859_1);
        return LENGTH.matcher(text).matches() ? Long.parseLong(text.substring(0, text.length() - 1)) : Long.MIN_VALUE;
    }
}
