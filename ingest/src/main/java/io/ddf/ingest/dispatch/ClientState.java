package io.ddf.ingest.dispatch;

import io.ddf.ingest.resp.RespError;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What a connection says about itself (CLIENT INFO, CLIENT LIST, HELLO): its id, addresses, name, protocol and
 * last command. Written on the connection's event loop; read there, or by CLIENT LIST from another event loop
 * (a listing is a snapshot, as Redis's is). The fields set by every command ({@link #ran}) are stored with opaque
 * writes, which need no fence: two volatile stores per command were two locked instructions on x86.
 */
public final class ClientState
{
    private static final VarHandle LAST_NANOS;
    private static final VarHandle LAST_COMMAND;

    static
    {
        try
        {
            LAST_NANOS = MethodHandles.lookup().findVarHandle(ClientState.class, "lastNanos", long.class);
            LAST_COMMAND = MethodHandles.lookup().findVarHandle(ClientState.class, "lastCommand", String.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final String addr;
    private final String laddr;
    private final long createdNanos = System.nanoTime();
    @SuppressWarnings("unused")
    private long lastNanos = createdNanos;
    private volatile String name = "";
    private volatile String libName = "";
    private volatile String libVersion = "";
    /** The user the connection is authenticated as (Redis shows the default user before AUTH). */
    private volatile String user = "default";
    private volatile int protocol = 2;
    @SuppressWarnings("unused")
    private String lastCommand = "NULL";
    private volatile boolean inMulti;

    /**
     * @param id     the client's id.
     * @param remote the peer's address.
     * @param local  the daemon's address.
     */
    public ClientState(final long id, final SocketAddress remote, final SocketAddress local)
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
    public long id()
    {
        return id;
    }

    /** @return 2 or 3. */
    public int protocol()
    {
        return protocol;
    }

    /** @param protocol 2 or 3 (HELLO). */
    public void protocol(final int protocol)
    {
        this.protocol = protocol;
    }

    /** @return the name CLIENT SETNAME or HELLO SETNAME gave, or empty. */
    public String name()
    {
        return name;
    }

    /**
     * @param name a name: empty clears it.
     * @throws RespError Redis's error when it has spaces, newlines or other special characters.
     */
    public void name(final String name)
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
    public void setInfo(final String attribute, final String value)
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
    public void inMulti(final boolean inMulti)
    {
        this.inMulti = inMulti;
    }

    /**
     * @param command the command about to run, lower case, for the {@code cmd} field.
     * @param nanos   {@link System#nanoTime()} when it started, for the {@code idle} field.
     */
    void ran(final String command, final long nanos)
    {
        LAST_COMMAND.setOpaque(this, command);
        LAST_NANOS.setOpaque(this, nanos);
    }

    /** @param name the user the connection has authenticated as (AUTH, HELLO AUTH). */
    public void user(final String name)
    {
        this.user = name;
    }

    /** @return one line of CLIENT LIST / CLIENT INFO, Redis's fields in Redis's order (no newline). */
    public String describe()
    {
        final long now = System.nanoTime();
        return "id=" + id + " addr=" + addr + " laddr=" + laddr + " fd=-1 name=" + name +
            " age=" + TimeUnit.NANOSECONDS.toSeconds(now - createdNanos) +
            " idle=" + TimeUnit.NANOSECONDS.toSeconds(now - (long)LAST_NANOS.getOpaque(this)) +
            " flags=" + (inMulti ? "x" : "N") + " db=0 sub=0 psub=0 ssub=0 multi=" + (inMulti ? 0 : -1) +
            " watch=0 events=r cmd=" + (String)LAST_COMMAND.getOpaque(this) + " user=" + user + " redir=-1 resp=" +
            protocol + " lib-name=" + libName + " lib-ver=" + libVersion;
    }
}
