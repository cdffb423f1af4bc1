package io.ddf.ingest.dispatch;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

/**
 * One entry of the {@link CommandTable}: Redis's metadata of a command (what {@code COMMAND INFO} and
 * {@code COMMAND DOCS} serve, and what the {@link Conductor} checks before the handler runs), its handler and its
 * statistics. The conductor checks {@link #arity} Redis's way: {@code n} is exactly n arguments (the name counted),
 * {@code -n} at least n; it asks the {@link Authorizer} with the ACL categories and key positions; and it counts
 * the command's runs here, as Redis's {@code redisCommand} holds its {@code calls}, {@code microseconds},
 * {@code rejected_calls} and {@code failed_calls}, so recording a run looks nothing up.
 *
 * <p>The ACL categories are Redis's: those the flags imply ({@code write} → {@code @write}, {@code readonly} →
 * {@code @read}, {@code admin} → {@code @admin} and {@code @dangerous}, {@code fast} → {@code @fast}, otherwise
 * {@code @slow}), the family's ({@code bf} → {@code @bloom}, {@code cf} → {@code @cuckoo}, {@code connection} →
 * {@code @connection}, {@code generic} → {@code @keyspace}, {@code transactions} → {@code @transaction}), and any
 * a command adds ({@link #also}), listed in Redis's order (its own categories, then the modules').
 */
public final class Command
{
    /** Flag of the commands a client may send before AUTH. */
    public static final String NO_AUTH = "no-auth";
    /** Commands that act on the transaction itself (or the connection) and so are never queued by MULTI. */
    private static final Set<String> NOT_QUEUED = Set.of("multi", "exec", "discard", "quit", "reset", "watch",
        "unwatch");
    /** Redis's ACL categories in its order (COMMAND INFO lists them so), then the modules' (RedisBloom's). */
    private static final List<String> CATEGORY_ORDER = List.of("@keyspace", "@read", "@write", "@set",
        "@sortedset", "@list", "@hash", "@string", "@bitmap", "@hyperloglog", "@geo", "@stream", "@pubsub", "@admin",
        "@fast", "@slow", "@blocking", "@dangerous", "@connection", "@transaction", "@scripting", "@bloom",
        "@cuckoo");

    private final String name;
    private final int arity;
    private final List<String> flags;
    private final List<String> categories;
    private final int firstKey;
    private final int lastKey;
    private final int step;
    private final String group;
    private final String summary;
    private final Handler handler;
    private final boolean noAuth;
    private final boolean writes;
    private final boolean queuedInTransaction;
    private final long largeArguments;
    private final List<Subcommand> subcommands;
    private final boolean keysOnlyNamed;
    // Its counters, Redis's INFO commandstats meaning: CALLS run, NANOS the event loop spent in them (not the wait
    // for a verdict or a file's creation), REJECTED refused before running (wrong arity), FAILED ran and answered an
    // error on the event loop (not an error of work done off it). Counted per thread, without a locked instruction:
    // each thread adds to cells of its own (a plain read and an opaque write, found through Netty's FastThreadLocal,
    // an array index on an event loop) and a reader sums every thread's; LongAdder, which these replaced, took a
    // compare-and-swap per add even uncontended, three per command. A reset records the sums as the new zero rather
    // than writing another thread's cells, so the sums stay monotonic.
    private static final int CALLS = 0;
    private static final int NANOS = 1;
    private static final int REJECTED = 2;
    private static final int FAILED = 3;
    private static final int WIDTH = 4;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    /** Every thread's cells, added to by that thread only. */
    private final List<long[]> cells = new CopyOnWriteArrayList<>();
    /** The sums at the last {@link #resetStats}. */
    private final long[] zero = new long[WIDTH];
    private final FastThreadLocal<long[]> mine = new FastThreadLocal<>()
    {
        @Override
        protected long[] initialValue()
        {
            final long[] own = new long[WIDTH];
            cells.add(own);
            return own;
        }
    };
    /** Told of every run's time in nanoseconds (the metrics endpoint's histogram), or null. */
    private volatile LongConsumer timer;

    /** Runs a command on the event loop of the connection that sent it. */
    @FunctionalInterface
    public interface Handler
    {
        /**
         * Queues the reply (now, or once verdicts or other work complete it) on the session.
         *
         * @param session the connection.
         * @param args    the command name and its arguments (released when this returns; copy to keep).
         * @throws RespError to reply with an error.
         */
        void execute(Session session, ByteBuf[] args);
    }

    /**
     * @param name     lower case, as looked up.
     * @param arity    exact (positive) or minimum (negative) argument count, the name included.
     * @param flags    Redis's command flags, e.g. {@code write}, {@code readonly}, {@code fast}, {@code no-auth}.
     * @param extra    ACL categories beyond those the flags and group imply.
     * @param firstKey position of the first key argument, 0 for none.
     * @param lastKey  position of the last key, -1 for the last argument.
     * @param step     between keys.
     * @param group    the COMMAND DOCS group: {@code bf}, {@code cf}, {@code connection}, {@code server}, ...
     * @param summary  one line for COMMAND DOCS.
     * @param handler  runs it.
     * @param largeArguments the longest argument it takes past {@code --max-bulk-bytes}, or 0.
     * @param subcommands    a container's subcommands, as ACL rules name them.
     * @param keysOnlyNamed  whether its keys are named without what they hold being read (EXISTS, TYPE).
     */
    private Command(final String name, final int arity, final List<String> flags, final List<String> extra,
        final int firstKey, final int lastKey, final int step, final String group, final String summary,
        final Handler handler, final long largeArguments, final List<Subcommand> subcommands,
        final boolean keysOnlyNamed)
    {
        this.largeArguments = largeArguments;
        this.subcommands = List.copyOf(subcommands);
        this.keysOnlyNamed = keysOnlyNamed;
        this.name = name;
        this.arity = arity;
        this.flags = List.copyOf(flags);
        this.categories = categories(flags, group, extra);
        this.firstKey = firstKey;
        this.lastKey = lastKey;
        this.step = step;
        this.group = group;
        this.summary = summary;
        this.handler = handler;
        this.noAuth = flags.contains(NO_AUTH);
        this.writes = flags.contains("write");
        this.queuedInTransaction = !NOT_QUEUED.contains(name);
    }

    private static List<String> categories(final List<String> flags, final String group, final List<String> extra)
    {
        final List<String> implied = new ArrayList<>(extra);
        if (flags.contains("write"))
        {
            implied.add("@write");
        }
        if (flags.contains("readonly"))
        {
            implied.add("@read");
        }
        if (flags.contains("admin"))
        {
            implied.add("@admin");
            implied.add("@dangerous");
        }
        implied.add(flags.contains("fast") ? "@fast" : "@slow");
        switch (group)
        {
            case "bf" -> implied.add("@bloom");
            case "cf" -> implied.add("@cuckoo");
            case "connection" -> implied.add("@connection");
            case "generic" -> implied.add("@keyspace");
            case "transactions" -> implied.add("@transaction");
            default ->
            {
                // server commands: their flags and extras say it
            }
        }
        final List<String> ordered = new ArrayList<>();
        for (final String category : CATEGORY_ORDER)
        {
            if (implied.contains(category))
            {
                ordered.add(category);
            }
        }
        if (!ordered.containsAll(implied))
        {
            throw new IllegalArgumentException("unknown ACL category among " + implied);
        }
        return List.copyOf(ordered);
    }

    /**
     * A command that takes no key.
     *
     * @return the entry.
     */
    public static Command keyless(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, List.of(), 0, 0, 0, group, summary, handler, 0, List.of(), false);
    }

    /**
     * A command whose first argument is its one key.
     *
     * @return the entry.
     */
    public static Command oneKey(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, List.of(), 1, 1, 1, group, summary, handler, 0, List.of(), false);
    }

    /**
     * A command whose every argument is a key.
     *
     * @return the entry.
     */
    public static Command allKeys(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, List.of(), 1, -1, 1, group, summary, handler, 0, List.of(), false);
    }

    /**
     * @param more ACL categories Redis gives the command beyond those its flags and group imply (e.g. KEYS is
     *             {@code @dangerous}).
     * @return the same command with them.
     */
    public Command also(final String... more)
    {
        final List<String> extra = new ArrayList<>(categories);
        extra.addAll(List.of(more));
        return new Command(name, arity, flags, extra, firstKey, lastKey, step, group, summary, handler,
            largeArguments, subcommands, keysOnlyNamed);
    }

    /**
     * @param bytes the longest argument the command takes, past {@code --max-bulk-bytes} (RedisBloom's SCANDUMP
     *              chunks run to megabytes); still at most {@code --max-request-bytes} in all
     *              ({@link io.ddf.ingest.resp.LargeArguments}).
     * @return the same command, taking them.
     */
    public Command largeArguments(final long bytes)
    {
        return new Command(name, arity, flags, categories, firstKey, lastKey, step, group, summary, handler, bytes,
            subcommands, keysOnlyNamed);
    }

    /**
     * @param subs a container's subcommands (CLIENT LIST, ACL SETUSER...) with the ACL categories Redis 7 gives
     *             each: ACL rules and NOPERM errors name them ({@code -@admin +client|id}), and a container itself
     *             then has no category, as in Redis.
     * @return the same command, with them.
     */
    public Command subcommands(final Subcommand... subs)
    {
        return new Command(name, arity, flags, categories, firstKey, lastKey, step, group, summary, handler,
            largeArguments, List.of(subs), keysOnlyNamed);
    }

    /**
     * Redis's key specifications for a command that names keys without reading what they hold (EXISTS, TYPE): a
     * user needs no read right on them.
     *
     * @return the same command, so declared.
     */
    public Command keysNotRead()
    {
        return new Command(name, arity, flags, categories, firstKey, lastKey, step, group, summary, handler,
            largeArguments, subcommands, true);
    }

    /** @return a container's subcommands, or none. */
    public List<Subcommand> subcommands()
    {
        return subcommands;
    }

    /** @return whether its keys are named without what they hold being read. */
    public boolean keysOnlyNamed()
    {
        return keysOnlyNamed;
    }

    /**
     * A subcommand, as ACL rules name it ({@code client|list}).
     *
     * @param name          {@code container|sub}, lower case.
     * @param categories    the ACL categories Redis 7 gives it, e.g. {@code @admin}.
     * @param key           the position of the key it names (MEMORY USAGE key: 2), or 0 for none.
     * @param keysOnlyNamed whether that key is named without what it holds being read.
     */
    public record Subcommand(String name, List<String> categories, int key, boolean keysOnlyNamed)
    {
        /**
         * @param name       {@code container|sub}, lower case.
         * @param categories its ACL categories.
         * @return a subcommand that names no key.
         */
        public static Subcommand of(final String name, final String... categories)
        {
            return new Subcommand(name, List.of(categories), 0, false);
        }
    }

    /** @return the longest argument it takes past {@code --max-bulk-bytes}, or 0 for none. */
    public long largeArguments()
    {
        return largeArguments;
    }

    /** @return lower case, as looked up. */
    public String name()
    {
        return name;
    }

    /** @return exact (positive) or minimum (negative) argument count, the name included. */
    public int arity()
    {
        return arity;
    }

    /** @return Redis's command flags. */
    public List<String> flags()
    {
        return flags;
    }

    /** @return Redis's ACL categories, e.g. {@code @write}, {@code @bloom}, {@code @fast}, in Redis's order. */
    public List<String> categories()
    {
        return categories;
    }

    /** @return position of the first key argument, 0 for none. */
    public int firstKey()
    {
        return firstKey;
    }

    /** @return position of the last key, -1 for the last argument. */
    public int lastKey()
    {
        return lastKey;
    }

    /** @return between keys. */
    public int step()
    {
        return step;
    }

    /** @return the COMMAND DOCS group. */
    public String group()
    {
        return group;
    }

    /** @return one line for COMMAND DOCS. */
    public String summary()
    {
        return summary;
    }

    /** @return runs it. */
    Handler handler()
    {
        return handler;
    }

    /** @return whether a client may send it before AUTH. */
    public boolean noAuth()
    {
        return noAuth;
    }

    /** @return whether Redis's flags say it may change data ({@code write}): refused while the log cannot be written */
    public boolean writes()
    {
        return writes;
    }

    /** @return whether MULTI queues it (all but the commands that act on the transaction or the connection). */
    boolean queuedInTransaction()
    {
        return queuedInTransaction;
    }

    /** @param timer told of every run's time from now on, in nanoseconds (at most one; null for none). */
    public void timer(final LongConsumer timer)
    {
        this.timer = timer;
    }

    /**
     * Counts a run, on the thread that ran it.
     *
     * @param nanos  time spent running it.
     * @param failed whether it answered an error.
     */
    void ran(final long nanos, final boolean failed)
    {
        final long[] own = mine.get();
        add(own, CALLS, 1);
        add(own, NANOS, nanos);
        if (failed)
        {
            add(own, FAILED, 1);
        }
        final LongConsumer t = timer;
        if (t != null)
        {
            t.accept(nanos);
        }
    }

    /** Counts a refusal before it ran. */
    void rejected()
    {
        add(mine.get(), REJECTED, 1);
    }

    /** @return times it ran (INFO commandstats' {@code calls}). */
    public long calls()
    {
        return sum(CALLS);
    }

    /** @return nanoseconds the event loops spent running it. */
    public long nanos()
    {
        return sum(NANOS);
    }

    /** @return times it was refused before it ran. */
    public long rejectedCalls()
    {
        return sum(REJECTED);
    }

    /** @return times it answered an error. */
    public long failedCalls()
    {
        return sum(FAILED);
    }

    /** Starts every counter again (CONFIG RESETSTAT); the histogram, cumulative by Prometheus's rules, is kept. */
    synchronized void resetStats()
    {
        for (int counter = 0; counter < WIDTH; counter++)
        {
            CELL.setOpaque(zero, counter, raw(counter));
        }
    }

    private static void add(final long[] own, final int counter, final long delta)
    {
        CELL.setOpaque(own, counter, own[counter] + delta);
    }

    /** @return the counter's sum over every thread since the start or the last {@link #resetStats}. */
    private long sum(final int counter)
    {
        return raw(counter) - (long)CELL.getOpaque(zero, counter);
    }

    private long raw(final int counter)
    {
        long sum = 0;
        for (final long[] own : cells)
        {
            sum += (long)CELL.getOpaque(own, counter);
        }
        return sum;
    }

    /**
     * @param args the command.
     * @return whether the argument count fits {@link #arity}.
     */
    boolean arityFits(final ByteBuf[] args)
    {
        return arity >= 0 ? args.length == arity : args.length >= -arity;
    }

    /**
     * An upper bound the arity cannot say (e.g. PING takes at most one argument).
     *
     * @param args the command.
     * @param max  most arguments, the name counted.
     * @param name the command's name.
     * @throws RespError when there are more.
     */
    public static void atMost(final ByteBuf[] args, final int max, final String name)
    {
        if (args.length > max)
        {
            throw wrongArity(name);
        }
    }

    /**
     * @param name a command or {@code command|subcommand}.
     * @return Redis's error for a wrong number of arguments.
     */
    public static RespError wrongArity(final String name)
    {
        return RespError.wrongArity(name);
    }

    @Override
    public String toString()
    {
        return name;
    }
}
