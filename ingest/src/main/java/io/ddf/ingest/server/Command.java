package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * One entry of the {@link CommandTable}: what {@code COMMAND INFO} and {@code COMMAND DOCS} say of a command, and
 * its handler. The table checks {@link #arity} before the handler runs, Redis's way: {@code n} is exactly n
 * arguments (the name counted), {@code -n} at least n.
 *
 * @param name     lower case, as looked up.
 * @param arity    exact (positive) or minimum (negative) argument count, the name included.
 * @param flags    Redis's command flags, e.g. {@code write}, {@code readonly}, {@code fast}, {@code no-auth}.
 * @param firstKey position of the first key argument, 0 for none.
 * @param lastKey  position of the last key, -1 for the last argument.
 * @param step     between keys.
 * @param group    the COMMAND DOCS group: {@code bf}, {@code connection}, {@code server}, {@code generic}.
 * @param summary  one line for COMMAND DOCS.
 * @param handler  runs it.
 */
record Command(String name, int arity, List<String> flags, int firstKey, int lastKey, int step, String group,
    String summary, Handler handler)
{
    /** Flag of the commands a client may send before AUTH. */
    static final String NO_AUTH = "no-auth";

    /** Runs a command on the event loop of the connection that sent it. */
    @FunctionalInterface
    interface Handler
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
     * A command that takes no key.
     *
     * @return the entry.
     */
    static Command keyless(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, 0, 0, 0, group, summary, handler);
    }

    /**
     * A command whose first argument is its one key.
     *
     * @return the entry.
     */
    static Command oneKey(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, 1, 1, 1, group, summary, handler);
    }

    /**
     * A command whose every argument is a key.
     *
     * @return the entry.
     */
    static Command allKeys(final String name, final int arity, final List<String> flags, final String group,
        final String summary, final Handler handler)
    {
        return new Command(name, arity, flags, 1, -1, 1, group, summary, handler);
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
    static void atMost(final ByteBuf[] args, final int max, final String name)
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
    static RespError wrongArity(final String name)
    {
        return new RespError("ERR wrong number of arguments for '" + name + "' command");
    }
}
