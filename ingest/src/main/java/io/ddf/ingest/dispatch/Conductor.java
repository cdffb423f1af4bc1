package io.ddf.ingest.dispatch;

import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.persistence.log.LogUnavailableException;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Runs one command of a connection: finds its {@link Command} by the bytes of its name, asks the {@link Authorizer},
 * checks its arity, queues it when a MULTI is open, else runs its handler, timing it on the {@link Command}'s own
 * counters; an error the handler throws becomes the command's error reply here ({@link Session#message} words it;
 * the connection does the same for work a command awaited off the event loop). The logic of the request path (Aeron's
 * conductor: the {@link RespDecoder} is its adapter, the {@link ReplyWriter} its proxy); shared by every connection,
 * and holds no state of its own but the count of ACL changes that says whether a client's cached permission holds. A command's error is a {@link RespError} (the reply's text) or a storage failure
 * ({@link FilterStoreException}, answered as {@code ERR} and its message): {@link Session#message} makes the text.
 */
public final class Conductor
{
    private static final SimpleStringRedisMessage QUEUED = new SimpleStringRedisMessage("QUEUED");

    private final CommandTable table;
    private final Authorizer authorizer;
    /** The error every command flagged {@code write} gets now (the change log cannot be written), or null. */
    private volatile String writeRefusal;
    private volatile Function<LogUnavailableException, String> refusalText = failure -> null;
    /** Changes of the users' rules so far ({@link #rulesChanged}): a client's cached permission is of one count. */
    private final AtomicLong rulesChanges = new AtomicLong();

    /**
     * @param table      what the daemon serves.
     * @param authorizer who may run what.
     */
    public Conductor(final CommandTable table, final Authorizer authorizer)
    {
        this.table = table;
        this.authorizer = authorizer;
    }

    /**
     * The users or their rules changed (ACL SETUSER, DELUSER, LOAD; from any thread): every client is checked again
     * at its next command, as Redis checks each command against the rules of the moment.
     */
    public void rulesChanged()
    {
        rulesChanges.incrementAndGet();
    }

    /**
     * @param refusal the error every command flagged {@code write} gets from now on (Redis's MISCONF), or null when
     *                writes resume: the change log's thread tells it ({@code Durability.onWriteRefusal}).
     */
    public void writesRefused(final String refusal)
    {
        writeRefusal = refusal;
    }

    /**
     * @param failure an append that failed midway through a command.
     * @return the error for its elements not judged: the refusal in force, else the failure's words.
     */
    public String refusalAfter(final LogUnavailableException failure)
    {
        final String text = refusalText.apply(failure);
        return text != null ? text : logFailureReply(writeRefusal, failure);
    }

    /**
     * @param text the refusal a failed append makes, or null (the daemon's durability: it names the data directory,
     *             whether or not the thread that met the failure has told {@link #writesRefused} yet).
     */
    public void refusalText(final Function<LogUnavailableException, String> text)
    {
        refusalText = text;
    }

    /** @return what the daemon serves. */
    public CommandTable table()
    {
        return table;
    }

    /**
     * Runs one command: its reply (or error) is queued on the session, in order.
     *
     * @param session the connection.
     * @param args    the name and its arguments (released by the caller once this returns).
     */
    public void run(final Session session, final ByteBuf[] args)
    {
        final Command command = table.find(args[0]);
        final Deferral deferral = session.deferral();
        deferral.before(command);
        try
        {
            runFound(session, command, args);
        }
        finally
        {
            deferral.after();
        }
    }

    private void runFound(final Session session, final Command command, final ByteBuf[] args)
    {
        final String refusal = refusal(session, command, args);
        if (refusal != null)
        {
            if (session.inMulti())
            {
                session.refuse();
            }
            session.replies().error(refusal);
            return;
        }
        try
        {
            if (command == null)
            {
                throw unknown(args);
            }
            if (!command.arityFits(args))
            {
                command.rejected();
                throw Command.wrongArity(command.name());
            }
            if (command.writes())
            {
                final String refused = writeRefusal;
                if (refused != null)
                {
                    command.rejected();
                    throw new RespError(refused);
                }
            }
            // one clock read serves the client's idle time and the command's timing (commandstats)
            final long start = System.nanoTime();
            session.ran(command.name(), start);
            if (session.inMulti() && command.queuedInTransaction())
            {
                session.queue(args);
                session.replies().ready(QUEUED);
                return;
            }
            execute(command, session, args, start);
        }
        catch (final RespError | FilterStoreException e)
        {
            if (session.inMulti())
            {
                // Redis's way: a command refused while queuing aborts the whole transaction at EXEC
                session.refuse();
            }
            session.replies().error(Session.message(e));
        }
        catch (final LogUnavailableException e)
        {
            // the write's record could not be appended (the log's next segment could not be made): refused, as
            // every write is from now on until the log can be written again
            if (session.inMulti())
            {
                session.refuse();
            }
            // the refusal is set by the failure's listener before the exception got here
            session.replies().error(refusalAfter(e));
        }
    }

    /**
     * @param refusal the refusal in force (naming the data directory), or null.
     * @param failure the append that failed.
     * @return the reply of a write whose record could not be appended: the refusal in force, else the failure's words.
     */
    public static String logFailureReply(final String refusal, final LogUnavailableException failure)
    {
        return refusal != null ? refusal : "MISCONF Errors writing to the change log: " + failure.getMessage();
    }

    /**
     * @return null when the client may run the command, else its error reply. A client whose user may run
     *     everything is asked about once per user and change of the rules: the count is read before the answer,
     *     so a change made meanwhile is seen at the next command.
     */
    private String refusal(final Session session, final Command command, final ByteBuf[] args)
    {
        final long rules = rulesChanges.get();
        if (session.unrestrictedAt == rules)
        {
            return null;
        }
        if (authorizer.allowsEverything(session))
        {
            session.unrestrictedAt = rules;
            return null;
        }
        return authorizer.refusal(session, command, args);
    }

    /** Runs a command's handler, timing it from {@code start}. */
    private static void execute(final Command command, final Session session, final ByteBuf[] args,
        final long start)
    {
        boolean failed = true;
        try
        {
            command.handler().execute(session, args);
            failed = false;
        }
        finally
        {
            command.ran(System.nanoTime() - start, failed);
        }
    }

    private static RespError unknown(final ByteBuf[] args)
    {
        final StringBuilder message = new StringBuilder("ERR unknown command '")
            .append(printable(args[0])).append("', with args beginning with: ");
        for (int i = 1; i < args.length && i < 4; i++)
        {
            message.append('\'').append(printable(args[i])).append("' ");
        }
        return new RespError(message.toString());
    }

    private static String printable(final ByteBuf arg)
    {
        final String text = arg.toString(StandardCharsets.UTF_8);
        final String shortened = text.length() > 128 ? text.substring(0, 128) : text;
        return shortened.replaceAll("[\\p{Cntrl}]", "?");
    }
}
