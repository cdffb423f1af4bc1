package io.ddf.ingest.server;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What a connection says about itself (CLIENT INFO, CLIENT LIST, HELLO): its id, addresses, name, protocol and
 * last command. Written on the connection's event loop; read there, or by CLIENT LIST from another event loop
 * (hence volatile fields: a listing is a snapshot, as Redis's is).
 */
final class ClientState
{
    private final long id;
    private final String addr;
    private final String laddr;
    private final long createdNanos = System.nanoTime();
    private volatile long lastNanos = createdNanos;
    private volatile String name = "";
    private volatile String libName = "";
    private volatile String libVersion = "";
    private volatile int protocol = 2;
    private volatile String lastCommand = "NULL";
    private volatile boolean inMulti;

    /**
     * @param id     the client's id.
     * @param remote the peer's address.
     * @param local  the daemon's address.
     */
    ClientState(final long id, final SocketAddress remote, final SocketAddress local)
    {
        this.id = id;
        this.addr = address(remote);
        this.laddr = address(local);
    }

    private static String address(final SocketAddress address)
    {
        if (address instanceof InetSocketAddress inet)
        {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    /** @return the client's id. */
    long id()
    {
        return id;
    }

    /** @return 2 or 3. */
    int protocol()
    {
        return protocol;
    }

    /** @return whether replies use RESP3. */
    boolean resp3()
    {
        return protocol == 3;
    }

    /** @param protocol 2 or 3 (HELLO). */
    void protocol(final int protocol)
    {
        this.protocol = protocol;
    }

    /** @return the name CLIENT SETNAME or HELLO SETNAME gave, or empty. */
    String name()
    {
        return name;
    }

    /**
     * @param name a name: empty clears it.
     * @throws RespError Redis's error when it has spaces, newlines or other special characters.
     */
    void name(final String name)
    {
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c <= ' ' || c > '~')
            {
                throw new RespError("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
        this.name = name;
    }

    /**
     * CLIENT SETINFO.
     *
     * @param attribute {@code lib-name} or {@code lib-ver}.
     * @param value     its value.
     * @throws RespError for another attribute or a value with spaces.
     */
    void setInfo(final String attribute, final String value)
    {
        if (value.chars().anyMatch(c -> c <= ' ' || c > '~'))
        {
            throw new RespError("ERR " + attribute + " cannot contain spaces, newlines or special characters.");
        }
        switch (attribute)
        {
            case "lib-name" -> libName = value;
            case "lib-ver" -> libVersion = value;
            default -> throw new RespError("ERR Unrecognized option '" + attribute + "'");
        }
    }

    /** @param inMulti whether a MULTI is open (the {@code multi} field and flag {@code x}). */
    void inMulti(final boolean inMulti)
    {
        this.inMulti = inMulti;
    }

    /**
     * @param command the command about to run, lower case, for the {@code cmd} field.
     * @param nanos   {@link System#nanoTime()} when it started, for the {@code idle} field.
     */
    void ran(final String command, final long nanos)
    {
        lastCommand = command;
        lastNanos = nanos;
    }

    /** @return one line of CLIENT LIST / CLIENT INFO, Redis's fields in Redis's order (no newline). */
    String describe()
    {
        final long now = System.nanoTime();
        return "id=" + id + " addr=" + addr + " laddr=" + laddr + " fd=-1 name=" + name +
            " age=" + TimeUnit.NANOSECONDS.toSeconds(now - createdNanos) +
            " idle=" + TimeUnit.NANOSECONDS.toSeconds(now - lastNanos) +
            " flags=" + (inMulti ? "x" : "N") + " db=0 sub=0 psub=0 ssub=0 multi=" + (inMulti ? 0 : -1) +
            " watch=0 events=r cmd=" + lastCommand + " user=default redir=-1 resp=" + protocol +
            " lib-name=" + libName + " lib-ver=" + libVersion;
    }
}
