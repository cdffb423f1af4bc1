package io.ddf.ingest.dispatch;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.ingest.acl.Identity;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.WrongTypeException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One client as its commands see it, and all a handler is given of it, as Redis's {@code client} struct: its replies
 * ({@link ReplyWriter}, in command order), its user, its MULTI (the commands queued until EXEC, and whether one was
 * refused while queuing: then EXEC discards them all, Redis's EXECABORT), what CLIENT INFO, CLIENT LIST and HELLO
 * show of it (id, addresses, name, protocol, last command), its last key as text, and the item limit
 * ({@code --max-item-bytes}). The {@link Conductor} and a handler read these here, as plain fields: a command that
 * completes on the event loop (BF.ADD on an existing filter) never calls into the connection. What only the
 * connection can do, because it outlives the command, goes through its narrow {@link Connection}: waiting for work
 * off the event loop, judging elements through its verdict ring, running the rest of an EXEC, answering a failed
 * AUTH late.
 *
 * <p>Owned by the connection's event loop; CLIENT LIST reads what it shows from another event loop (a listing is a
 * snapshot, as Redis's is): the fields set by every command ({@link #ran}) are stored with opaque writes, which need
 * no fence (two volatile stores per command were two locked instructions on x86), the others are volatile.
 */
public final class Session
{
    /** What a command may ask of the connection that outlives it; the connection is the only implementation. */
    public interface Connection
    {
        /**
         * Runs commands one after the other as if the client had sent them now (EXEC): if one waits for work off
         * the event loop ({@link #await}), the rest run after it, before any command read later.
         *
         * @param queued the commands (copies; released once run).
         */
        void runAll(List<ByteBuf[]> queued);

        /**
         * A connection that was a stranger (no AUTH yet) is known from now on: it no longer holds a stranger's slot.
         */
        void known();

        /**
         * A wrong password: the error is the reply, given after a delay that grows with each failure on the
         * connection and on the user; after a few failures the connection is closed.
         *
         * @param error         the error reply.
         * @param atLeastMillis the user's delay ({@link io.ddf.ingest.acl.AuthFailures}): the reply waits at least
         *                      this.
         */
        void authFailed(String error, long atLeastMillis);

        /**
         * Judges elements on this event loop or through the pipeline ({@code serve --execution}), the reply their
         * verdicts make taking its place ({@link Session#judge}).
         *
         * @param filter    the filter.
         * @param operation stream or contains.
         * @param args      the command.
         * @param first     the index of its first item.
         * @param array     whether the reply is an array.
         */
        void judge(DuplicateFilter filter, Operation operation, ByteBuf[] args, int first, boolean array);

        /**
         * Waits for work off the event loop ({@link Session#await}).
         *
         * @param work the work.
         * @param then queues the command's reply, on the event loop.
         */
        void await(CompletableFuture<?> work, Runnable then);

        /**
         * {@link #await} the work, then runs the command again.
         *
         * @param work the work.
         * @param args the command (copied by the connection).
         */
        void retryAfter(CompletableFuture<?> work, ByteBuf[] args);

        /**
         * @param args the command (copied).
         * @return true when the command was deferred until the connection's published elements are judged.
         */
        boolean deferUntilJudged(ByteBuf[] args);
    }

    /** Keys longer than this are not cached: comparing them would cost about what decoding them does. */
    private static final int MAX_CACHED_KEY = 256;
    private static final VarHandle LAST_NANOS;
    private static final VarHandle LAST_COMMAND;

    static
    {
        try
        {
            LAST_NANOS = MethodHandles.lookup().findVarHandle(Session.class, "lastNanos", long.class);
            LAST_COMMAND = MethodHandles.lookup().findVarHandle(Session.class, "lastCommand", String.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Connection connection;
    private final ReplyWriter replies;
    private final int maxItemBytes;
    private final Identity defaultIdentity;
    /** The user AUTH named (or the default user when it needs no password), null before AUTH. */
    private Identity user;
    /**
     * The count of ACL changes ({@link Conductor#rulesChanged}) at which {@link #user} was found allowed every command
     * on every key, or -1: the conductor's cached permission, so the ACL is off such a client's commands' path.
     */
    long unrestrictedAt = -1;
    /** The commands MULTI queued until EXEC, or null outside a MULTI. */
    private List<ByteBuf[]> queued;
    /** A command was refused while queuing: EXEC runs nothing. */
    private boolean refused;

    // what CLIENT LIST shows, set when the connection is admitted ({@link #admit}) and read from other event loops
    private volatile long id;
    private volatile String addr = "";
    private volatile String laddr = "";
    private volatile long createdNanos = System.nanoTime();
    @SuppressWarnings("unused")
    private long lastNanos = createdNanos;
    @SuppressWarnings("unused")
    private String lastCommand = "NULL";
    private volatile String name = "";
    private volatile String libName = "";
    private volatile String libVersion = "";
    /** The user the connection is authenticated as (Redis shows the default user before AUTH). */
    private volatile String userName = "default";
    private volatile int protocol = 2;
    /** Whether a MULTI is open (the {@code multi} field and flag {@code x}). */
    private volatile boolean inMulti;
    /** The last key argument's bytes and its text ({@link #key}). */
    private byte[] keyBytes = new byte[0];
    private String keyText = "";
    private final Deferral deferral = new Deferral(this);

    /**
     * @param connection      what only the connection can do.
     * @param replies         the connection's replies.
     * @param maxItemBytes    {@code --max-item-bytes}.
     * @param defaultIdentity the default user.
     * @param authenticated   whether the default user needs no password (then the client is authenticated as it).
     */
    public Session(final Connection connection, final ReplyWriter replies, final int maxItemBytes,
        final Identity defaultIdentity, final boolean authenticated)
    {
        this.connection = connection;
        this.replies = replies;
        this.maxItemBytes = maxItemBytes;
        this.defaultIdentity = defaultIdentity;
        this.user = authenticated ? defaultIdentity : null;
    }

    /** @return the connection's replies, in command order. */
    public ReplyWriter replies()
    {
        return replies;
    }

    /** @return the work its commands may leave undone for the next ones to join. */
    public Deferral deferral()
    {
        return deferral;
    }

    /**
     * The connection's last key argument as text, kept so that a client sending command after command to one key
     * (the common case: redis-benchmark, a stream deduplicated into one filter) does not make a new String for each:
     * the daemon's allocation profile under BF.ADD -P 16 had the key's String and its bytes at 17 % of the bytes
     * allocated per command. Keys are compared byte for byte, so a different key is never mistaken for the cached
     * one.
     *
     * @param arg a key argument (not consumed).
     * @return its text ({@link Replies#key}), the same String as last time when the key repeats.
     */
    public String key(final ByteBuf arg)
    {
        final int length = arg.readableBytes();
        if (length == keyBytes.length && sameKey(arg, length))
        {
            return keyText;
        }
        final String text = Replies.key(arg);
        if (length <= MAX_CACHED_KEY)
        {
            final byte[] copy = new byte[length];
            arg.getBytes(arg.readerIndex(), copy);
            keyBytes = copy;
            keyText = text;
        }
        return text;
    }

    private boolean sameKey(final ByteBuf arg, final int length)
    {
        if (arg.hasArray())
        {
            final int at = arg.arrayOffset() + arg.readerIndex();
            return java.util.Arrays.equals(arg.array(), at, at + length, keyBytes, 0, length);
        }
        final int from = arg.readerIndex();
        for (int i = 0; i < length; i++)
        {
            if (arg.getByte(from + i) != keyBytes[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The connection is admitted: it is a client from now on (CLIENT LIST).
     *
     * @param clientId its id.
     * @param remote   the peer's address.
     * @param local    the daemon's address.
     */
    public void admit(final long clientId, final SocketAddress remote, final SocketAddress local)
    {
        this.addr = address(remote);
        this.laddr = address(local);
        this.createdNanos = System.nanoTime();
        LAST_NANOS.setOpaque(this, createdNanos);
        this.id = clientId;
    }

    private static String address(final SocketAddress address)
    {
        if (address instanceof InetSocketAddress inet)
        {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    /** @return the client's id (CLIENT ID, HELLO). */
    public long id()
    {
        return id;
    }

    /** @return 2 or 3. */
    public int protocol()
    {
        return protocol;
    }

    /** @param version 2 or 3 (HELLO). */
    public void protocol(final int version)
    {
        this.protocol = version;
    }

    /** @return the name CLIENT SETNAME or HELLO SETNAME gave, or empty. */
    public String name()
    {
        return name;
    }

    /**
     * @param given a name: empty clears it.
     * @throws RespError Redis's error when it has spaces, newlines or other special characters.
     */
    public void name(final String given)
    {
        for (int i = 0; i < given.length(); i++)
        {
            final char c = given.charAt(i);
            if (c <= ' ' || c > '~')
            {
                throw new RespError("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
        this.name = given;
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

    /**
     * @param command the command about to run, lower case, for the {@code cmd} field.
     * @param nanos   {@link System#nanoTime()} when it started, for the {@code idle} field.
     */
    void ran(final String command, final long nanos)
    {
        LAST_COMMAND.setOpaque(this, command);
        LAST_NANOS.setOpaque(this, nanos);
    }

    /** @return one line of CLIENT LIST / CLIENT INFO, Redis's fields in Redis's order (no newline). */
    public String describe()
    {
        final long now = System.nanoTime();
        final boolean multi = inMulti;
        return "id=" + id + " addr=" + addr + " laddr=" + laddr + " fd=-1 name=" + name +
            " age=" + TimeUnit.NANOSECONDS.toSeconds(now - createdNanos) +
            " idle=" + TimeUnit.NANOSECONDS.toSeconds(now - (long)LAST_NANOS.getOpaque(this)) +
            " flags=" + (multi ? "x" : "N") + " db=0 sub=0 psub=0 ssub=0 multi=" + (multi ? 0 : -1) +
            " watch=0 events=r cmd=" + (String)LAST_COMMAND.getOpaque(this) + " user=" + userName +
            " redir=-1 resp=" + protocol + " lib-name=" + libName + " lib-ver=" + libVersion;
    }

    // MULTI

    /** @return whether MULTI was sent and neither EXEC nor DISCARD yet. */
    public boolean inMulti()
    {
        return queued != null;
    }

    /** Opens the transaction (MULTI). */
    public void multi()
    {
        queued = new ArrayList<>();
        refused = false;
        inMulti = true;
    }

    /** @param args a command to run at EXEC (copied: the caller's buffers are released). */
    void queue(final ByteBuf[] args)
    {
        final ByteBuf[] copies = new ByteBuf[args.length];
        for (int i = 0; i < args.length; i++)
        {
            copies[i] = Unpooled.copiedBuffer(args[i]);
        }
        queued.add(copies);
    }

    /** A command was refused while queuing (unknown, wrong arity, not allowed): EXEC will run nothing. */
    void refuse()
    {
        refused = true;
    }

    /**
     * Closes the transaction (EXEC).
     *
     * @return the queued commands, to run.
     * @throws RespError EXECABORT, after releasing them, when one was refused while queuing.
     */
    public List<ByteBuf[]> exec()
    {
        final List<ByteBuf[]> commands = queued;
        queued = null;
        inMulti = false;
        if (refused)
        {
            release(commands);
            throw new RespError("EXECABORT Transaction discarded because of previous errors.");
        }
        return commands;
    }

    /** Drops the queued commands (DISCARD, or the connection closing). */
    public void discard()
    {
        inMulti = false;
        if (queued != null)
        {
            release(queued);
            queued = null;
        }
    }

    private static void release(final List<ByteBuf[]> commands)
    {
        for (final ByteBuf[] args : commands)
        {
            for (final ByteBuf arg : args)
            {
                arg.release();
            }
        }
    }

    // the user

    /** @return whether the client may run commands (the default user needs no password, or AUTH given). */
    public boolean authenticated()
    {
        return user != null;
    }

    /** @return the user the client is (or would be, before AUTH) authenticated as. */
    public Identity identity()
    {
        return user != null ? user : defaultIdentity;
    }

    /**
     * Marks the client authenticated as a user.
     *
     * @param identity the user.
     */
    public void authenticate(final Identity identity)
    {
        final boolean known = user != null;
        user = identity;
        unrestrictedAt = -1;
        userName = identity.name();
        if (!known)
        {
            connection.known();
        }
    }

    /**
     * A wrong password: the error is the reply, given late ({@link Connection#authFailed}).
     *
     * @param error         the error reply.
     * @param atLeastMillis the user's delay: the reply waits at least this.
     */
    public void authFailed(final String error, final long atLeastMillis)
    {
        connection.authFailed(error, atLeastMillis);
    }

    /**
     * The one check of an item's length ({@code --max-item-bytes}) for every command that takes items: a ring slot
     * holds at most that many bytes, and inline execution keeps the limit so that both modes answer alike.
     *
     * @param args  the command.
     * @param first the index of its first item; every argument from there on is an item.
     * @throws RespError naming the limit when an item is longer.
     */
    public void checkItems(final ByteBuf[] args, final int first)
    {
        for (int i = first; i < args.length; i++)
        {
            if (args[i].readableBytes() > maxItemBytes)
            {
                throw new RespError("ERR item of " + args[i].readableBytes() + " bytes is longer than the " +
                    maxItemBytes + "-byte limit");
            }
        }
    }

    /**
     * Judges {@code args[first..]} against the filter, each an element, on this event loop or through the pipeline
     * ({@code serve --execution}), and places the reply their verdicts make: 1 (RESP3 true) for an element streamed
     * UNSEEN or found present, else 0 (false), one value or an array of them. Checks the items' length first
     * ({@link #checkItems}). Call holding the filter's lease.
     *
     * @param filter    the filter.
     * @param operation stream (judge and record) or contains (judge only).
     * @param args      the command.
     * @param first     the index of its first item; every argument from there on is one.
     * @param array     whether the reply is an array (BF.MADD, BF.MEXISTS) rather than one value (BF.ADD).
     */
    public void judge(final DuplicateFilter filter, final Operation operation, final ByteBuf[] args, final int first,
        final boolean array)
    {
        checkItems(args, first);
        connection.judge(filter, operation, args, first, array);
    }

    /**
     * Runs commands one after the other as if the client had sent them now (EXEC).
     *
     * @param queued the commands (copies; released once run).
     */
    public void runAll(final List<ByteBuf[]> queued)
    {
        connection.runAll(queued);
    }

    /**
     * Waits for work running off the event loop (a filter file being created) without blocking the event loop:
     * the connection stops reading, later commands already read wait, and so do their replies. Once the work is
     * done, {@code then} runs on the event loop (or its failure is the reply), and the later commands run.
     *
     * @param work the work, completing exceptionally with a {@link RespError} to reply with.
     * @param then queues the command's reply, on the event loop.
     */
    public void await(final CompletableFuture<?> work, final Runnable then)
    {
        connection.await(work, then);
    }

    /**
     * {@link #await} the work, then runs the command again (e.g. BF.ADD once its filter exists).
     *
     * @param work the work.
     * @param args the command (copied: the caller's buffers are released when it returns).
     */
    public void retryAfter(final CompletableFuture<?> work, final ByteBuf[] args)
    {
        connection.retryAfter(work, args);
    }

    /**
     * For a command that reads a filter's state (BF.CARD, BF.INFO, INFO): when elements this connection published
     * earlier are still in the pipeline, runs the command again once their verdicts are in, so that its reply
     * reflects every earlier command of the connection (the pipeline updates a filter's counts before it hands
     * the verdict back). Later commands of the connection wait meanwhile ({@link #await}).
     *
     * @param args the command (copied).
     * @return true when the command was deferred: the caller returns without replying.
     */
    public boolean deferUntilJudged(final ByteBuf[] args)
    {
        return connection.deferUntilJudged(args);
    }

    /**
     * @param failure a command's failure, or one of work done off the event loop.
     * @return the RESP error it replies with: a {@link RespError}'s own, Redis's WRONGTYPE for a
     *         {@link WrongTypeException}, {@code ERR} and the message of any other (a {@link FilterStoreException}'s
     *         says what the store could not do).
     */
    public static String message(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
            failure.getCause() : failure;
        if (cause instanceof RespError)
        {
            return cause.getMessage();
        }
        return cause instanceof WrongTypeException ? RespError.WRONGTYPE : "ERR " + OneLine.of(cause);
    }
}
