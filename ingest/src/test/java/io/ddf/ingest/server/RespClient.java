package io.ddf.ingest.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tests' RESP client over a plain socket, for tests that need exact bytes or reply types. Replies are parsed to:
 * simple string as String, error as "-..." String, integer as Long, bulk string as String, array as List, and
 * RESP3's map as LinkedHashMap, boolean as Boolean, double as Double, verbatim string as {@link Verbatim}. A nil
 * bulk string, a nil array and RESP3's null are each null, or {@link #NIL_BULK}, {@link #NIL_ARRAY} and
 * {@link #NULL} after {@link #typed()}, for the tests that must tell them apart.
 */
public final class RespClient implements AutoCloseable
{
    /** RESP2's null bulk string ({@code $-1}), after {@link #typed()}. */
    static final String NIL_BULK = "$-1";
    /** RESP2's null array ({@code *-1}), after {@link #typed()}. */
    static final String NIL_ARRAY = "*-1";
    /** RESP3's null ({@code _}), after {@link #typed()}. */
    static final String NULL = "_";

    /** A verbatim string. */
    record Verbatim(String format, String text)
    {
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    /** Bulk strings as ISO-8859-1 both ways, so a String carries arbitrary bytes one char per byte (dumps). */
    private boolean binary;
    /** Whether the three nulls are told apart. */
    private boolean typed;

    RespClient(final int port) throws IOException
    {
        this(connect(port));
    }

    /** @param connected a socket already connected (e.g. a TLS socket). */
    RespClient(final Socket connected) throws IOException
    {
        socket = connected;
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    private static Socket connect(final int port) throws IOException
    {
        final Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        return socket;
    }

    Socket socket()
    {
        return socket;
    }

    public static byte[] encode(final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (final String arg : args)
        {
            final byte[] a = arg.getBytes(StandardCharsets.UTF_8);
            bytes.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            bytes.writeBytes(a);
            bytes.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    /** Tells a nil bulk string, a nil array and RESP3's null apart from now on. */
    RespClient typed()
    {
        typed = true;
        return this;
    }

    /** Sends and reads bulk strings byte for byte (ISO-8859-1) from now on. */
    RespClient binary()
    {
        binary = true;
        return this;
    }

    void send(final String... args) throws IOException
    {
        out.write(binary ? encodeBinary(args) : encode(args));
        out.flush();
    }

    private static byte[] encodeBinary(final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (final String arg : args)
        {
            final byte[] a = arg.getBytes(StandardCharsets.ISO_8859_1);
            bytes.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(a);
            bytes.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return bytes.toByteArray();
    }

    public void sendRaw(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    /** @return whether reply bytes have arrived that were not read yet. */
    boolean replyArrived() throws IOException
    {
        return in.available() > 0;
    }

    Object call(final String... args) throws IOException
    {
        send(args);
        return read();
    }

    public Object read() throws IOException
    {
        final int type = in.read();
        if (type < 0)
        {
            throw new EOFException("connection closed");
        }
        final String line = line();
        return switch (type)
        {
            case '+' -> line;
            case '-' -> "-" + line;
            case ':' -> Long.parseLong(line);
            case '#' -> switch (line)
            {
                case "t" -> Boolean.TRUE;
                case "f" -> Boolean.FALSE;
                default -> throw new IOException("bad boolean " + line);
            };
            case ',' -> switch (line)
            {
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                case "nan" -> Double.NaN;
                default -> Double.parseDouble(line);
            };
            case '_' -> typed ? NULL : null;
            case '$' -> line.equals("-1") ? (typed ? NIL_BULK : null) : bulk(Integer.parseInt(line));
            case '=' ->
            {
                final String text = bulk(Integer.parseInt(line));
                yield new Verbatim(text.substring(0, 3), text.substring(4));
            }
            case '*' ->
            {
                if (line.equals("-1"))
                {
                    yield typed ? NIL_ARRAY : null;
                }
                final List<Object> list = new ArrayList<>();
                for (int i = Integer.parseInt(line); i > 0; i--)
                {
                    list.add(read());
                }
                yield list;
            }
            case '%' ->
            {
                final Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = Integer.parseInt(line); i > 0; i--)
                {
                    final Object key = read();
                    if (map.put(key, read()) != null)
                    {
                        throw new IOException("map key twice: " + key);
                    }
                }
                yield map;
            }
            default -> throw new IOException("bad reply type " + (char)type + line);
        };
    }

    private String bulk(final int length) throws IOException
    {
        final byte[] data = in.readNBytes(length);
        if (in.read() != '\r' || in.read() != '\n')
        {
            throw new IOException("bulk string not followed by CRLF");
        }
        return new String(data, binary ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /** @return whether the server closed the connection (EOF) within the socket timeout. */
    boolean closedByServer() throws IOException
    {
        try
        {
            while (true)
            {
                if (in.read() < 0)
                {
                    return true;
                }
            }
        }
        catch (final java.net.SocketException e)
        {
            return true;
        }
    }

    private String line() throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r')
        {
            if (c < 0)
            {
                throw new EOFException("connection closed mid-line");
            }
            line.append((char)c);
        }
        if (in.read() != '\n')
        {
            throw new IOException("CR not followed by LF");
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
