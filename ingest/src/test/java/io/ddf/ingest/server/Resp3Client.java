package io.ddf.ingest.server;

import java.io.BufferedInputStream;
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
 * A minimal RESP2 + RESP3 client for tests that check reply types: simple string as String, error as "-..." String,
 * integer as Long, bulk as String or {@link #NIL_BULK}, array as List or {@link #NIL_ARRAY}, map as LinkedHashMap,
 * boolean as Boolean, double as Double, RESP3 null as {@link #NULL}, verbatim string as {@link Verbatim}.
 */
final class Resp3Client implements AutoCloseable
{
    /** RESP2's null bulk string ({@code $-1}). */
    static final String NIL_BULK = "$-1";
    /** RESP2's null array ({@code *-1}). */
    static final String NIL_ARRAY = "*-1";
    /** RESP3's null ({@code _}). */
    static final String NULL = "_";

    /** A verbatim string. */
    record Verbatim(String format, String text)
    {
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    Resp3Client(final int port) throws IOException
    {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    void send(final String... args) throws IOException
    {
        out.write(RespClient.encode(args));
        out.flush();
    }

    Object call(final String... args) throws IOException
    {
        send(args);
        return read();
    }

    Object read() throws IOException
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
            case '_' -> NULL;
            case '$' -> line.equals("-1") ? NIL_BULK : bulk(Integer.parseInt(line));
            case '=' ->
            {
                final String text = bulk(Integer.parseInt(line));
                yield new Verbatim(text.substring(0, 3), text.substring(4));
            }
            case '*' ->
            {
                if (line.equals("-1"))
                {
                    yield NIL_ARRAY;
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
        return new String(data, StandardCharsets.UTF_8);
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
