package io.ddf.ingest.commands.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.glob.Glob;
import io.ddf.ingest.info.ServerInfo;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.security.ServerSecurity;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis connection and administration commands clients and tools send (redis-cli, redis-benchmark, Jedis at
 * connect): PING, ECHO, QUIT, AUTH, HELLO, SELECT, CLIENT, CONFIG, INFO, DBSIZE, and the generic key commands
 * EXISTS, TYPE, DEL and UNLINK over the named filters. COMMAND itself is the {@link CommandTable}'s.
 */
public final class ServerCommands
{
    private static final List<String> CONNECTION = List.of("fast", "stale");
    private static final List<String> ADMIN = List.of("admin", "noscript", "loading", "stale");
    /** CLIENT HELP's lines, as Redis lays them out: the subcommands ddf serves, each with what it does. */
    private static final List<String> CLIENT_HELP = List.of(
        "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ID",
        "    The connection's id.",
        "INFO",
        "    The connection, as a line of CLIENT LIST.",
        "LIST [TYPE normal] [ID <id> [<id> ...]]",
        "    Every connection (or those with the ids given), one line each.",
        "GETNAME",
        "    The connection's name, or nil.",
        "SETNAME <name>",
        "    Names the connection.",
        "SETINFO <LIB-NAME|LIB-VER> <value>",
        "    Records the client library's name or version.",
        "NO-EVICT|NO-TOUCH <ON|OFF>",
        "    Accepted; nothing changes (ddf evicts nothing and keeps no access times).",
        "REPLY ON",
        "    Accepted; OFF and SKIP are refused: ddf answers every command.",
        "HELP",
        "    Prints this help.");

    /** RedisBloom's module name and version (2.4.23), as HELLO and MODULE LIST name the module loaded. */
    private static final String MODULE_NAME = "bf";
    private static final long MODULE_VERSION = 20423;

    private final FilterStore store;
    private final CommandTable table;
    private final java.util.function.Supplier<ServerSecurity> security;
    private final java.util.function.Supplier<ServerInfo> info;
    private final java.util.function.Consumer<DuplicateFilter> drain;

    /**
     * @param store    the filters.
     * @param table    the commands served (CONFIG RESETSTAT).
     * @param security the users (AUTH, HELLO's AUTH), once made: the ACL's rules name the commands registered.
     * @param info     INFO's text and CONFIG GET's values, once the daemon listens.
     * @param drain    returns once every element published so far for a filter has been judged.
     */
    public ServerCommands(final FilterStore store, final CommandTable table,
        final java.util.function.Supplier<ServerSecurity> security, final java.util.function.Supplier<ServerInfo> info,
        final java.util.function.Consumer<DuplicateFilter> drain)
    {
        this.store = store;
        this.table = table;
        this.security = security;
        this.info = info;
        this.drain = drain;
    }

    /** @param table gets MODULE (registered after RedisBloom's commands, where Redis lists it). */
    public void registerModule(final CommandTable table)
    {
        table.add(Command.keyless("module", -2, List.of("admin", "noscript"), "server",
            "LIST: the bf module (RedisBloom's commands, which ddf serves itself), as a Redis with RedisBloom " +
                "names it.", ServerCommands::moduleCommand).subcommands(
                Command.Subcommand.of("module|list", "@admin", "@slow", "@dangerous"), Command.Subcommand.of("module|help", "@slow")));
    }

    /** @param table gets every command of this class. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("ping", -1, CONNECTION, "connection", "PONG, or the argument.", this::ping));
        table.add(Command.keyless("echo", 2, List.of("fast"), "connection", "The argument.", this::echo));
        table.add(Command.keyless("quit", -1, List.of("fast", Command.NO_AUTH), "connection",
            "OK, then closes the connection.", (s, a) -> s.replies().readyThenClose(Replies.OK)));
        table.add(Command.keyless("auth", -2, List.of("fast", "noscript", "loading", "stale", Command.NO_AUTH),
            "connection", "Authenticates with the password (--requirepass), user 'default'.", this::auth));
        table.add(Command.keyless("hello", -1, List.of("fast", "noscript", "loading", "stale", Command.NO_AUTH),
            "connection", "Handshake: protocol 2 or 3 (RESP3), optional AUTH and SETNAME.", this::hello));
        table.add(Command.keyless("select", 2, List.of("fast", "loading", "stale"), "connection",
            "Database 0 only.", this::select));
        table.add(Command.keyless("client", -2, ADMIN, "connection",
            "ID, INFO, LIST, GETNAME, SETNAME, SETINFO and the no-op flags client libraries send.", this::client)
            .subcommands(Command.Subcommand.of("client|id", "@slow", "@connection"), Command.Subcommand.of("client|setname", "@slow", "@connection"),
                Command.Subcommand.of("client|getname", "@slow", "@connection"), Command.Subcommand.of("client|setinfo", "@slow", "@connection"),
                Command.Subcommand.of("client|info", "@slow", "@connection"),
                Command.Subcommand.of("client|list", "@admin", "@slow", "@dangerous", "@connection"),
                Command.Subcommand.of("client|help", "@slow", "@connection"),
                Command.Subcommand.of("client|no-evict", "@admin", "@slow", "@dangerous", "@connection"),
                Command.Subcommand.of("client|no-touch", "@fast", "@connection"), Command.Subcommand.of("client|reply", "@slow", "@connection")));
        table.add(Command.keyless("config", -2, ADMIN, "server", "GET of the daemon's settings; no SET.",
            this::config).subcommands(Command.Subcommand.of("config|get", "@admin", "@slow", "@dangerous"),
                Command.Subcommand.of("config|set", "@admin", "@slow", "@dangerous"),
                Command.Subcommand.of("config|resetstat", "@admin", "@slow", "@dangerous"), Command.Subcommand.of("config|help", "@slow")));
        table.add(Command.keyless("info", -1, List.of("loading", "stale"), "server",
            "The sections asked (default: all but commandstats), as Redis names them: server, clients, stats, " +
                "keyspace, memory, persistence, commandstats.", this::info).also("@dangerous"));
        table.add(Command.keyless("dbsize", -1, List.of("readonly", "fast"), "server", "The number of filters.",
            (s, a) -> s.replies().ready(Replies.integer(store.size()))).also("@keyspace"));
        table.add(Command.allKeys("exists", -2, List.of("readonly", "fast"), "generic",
            "How many of the keys name a file (a filter or a foreign one).", this::existsKeys).keysNotRead());
        table.add(Command.oneKey("type", 2, List.of("readonly", "fast"), "generic",
            "MBbloomCF for a cuckoo filter, MBbloom-- for another, unknown for a foreign file, none.", this::type)
            .keysNotRead());
        table.add(Command.allKeys("del", -2, List.of("write"), "generic",
            "Deletes filters and their files, after the pipeline has judged their elements.", this::del));
        table.add(Command.allKeys("unlink", -2, List.of("write", "fast"), "generic", "Like DEL.", this::del));
    }

    private void ping(final Session session, final ByteBuf[] args)
    {
        Command.atMost(args, 2, "ping");
        session.replies().ready(args.length == 1 ? Replies.PONG :
            new FullBulkStringRedisMessage(args[1].retainedDuplicate()));
    }

    private void echo(final Session session, final ByteBuf[] args)
    {
        session.replies().ready(new FullBulkStringRedisMessage(args[1].retainedDuplicate()));
    }

    /** @return false when the password is wrong: the session then answers, after a delay (AuthThrottle). */
    private boolean authenticate(final Session session, final ByteBuf command, final ByteBuf user,
        final ByteBuf password)
    {
        final io.ddf.ingest.acl.Acl acl = security.get().acl();
        if (user == null && acl.defaultIdentity().user().noPass())
        {
            throw new RespError("ERR AUTH <password> called without any password configured for the default " +
                "user. Are you sure your configuration is correct?");
        }
        final String name = user == null ? io.ddf.ingest.acl.Acl.DEFAULT_USER : Replies.key(user);
        final byte[] given = new byte[password.readableBytes()];
        password.getBytes(password.readerIndex(), given);
        final io.ddf.ingest.acl.Identity identity = acl.authenticate(name, given);
        if (identity == null)
        {
            acl.log().record("auth", session.inMulti() ? "multi" : "toplevel", Replies.key(command),
                name, session.describe(), System.currentTimeMillis());
            session.authFailed("WRONGPASS invalid username-password pair or user is disabled.",
                security.get().failures().failed(name, acl.exists(name), System.nanoTime() / 1_000_000));
            return false;
        }
        session.authenticate(identity);
        return true;
    }

    private void auth(final Session session, final ByteBuf[] args)
    {
        Command.atMost(args, 3, "auth");
        if (authenticate(session, args[0], args.length == 3 ? args[1] : null, args[args.length - 1]))
        {
            session.replies().ready(Replies.OK);
        }
    }

    /** HELLO [protover [AUTH user pass] [SETNAME name]]: the reply (and every later one) in that protocol. */
    private void hello(final Session session, final ByteBuf[] args)
    {
        int version = session.protocol();
        int i = 1;
        if (args.length > 1)
        {
            final long asked = Replies.integer(args[1], "ERR Protocol version is not an integer or out of range");
            if (asked != 2 && asked != 3)
            {
                throw new RespError("NOPROTO unsupported protocol version");
            }
            version = (int)asked;
            i = 2;
        }
        String name = null;
        for (; i < args.length; i++)
        {
            final String option = Replies.word(args[i]);
            if (option.equals("auth") && i + 2 < args.length)
            {
                if (!authenticate(session, args[0], args[i + 1], args[i + 2]))
                {
                    return;
                }
                i += 2;
            }
            else if (option.equals("setname") && i + 1 < args.length)
            {
                name = args[++i].toString(StandardCharsets.UTF_8);
            }
            else
            {
                throw new RespError("ERR Syntax error in HELLO option '" + option + "'");
            }
        }
        if (!session.authenticated())
        {
            session.replies().ready(Replies.NOAUTH);
            return;
        }
        if (name != null)
        {
            session.name(name);
        }
        session.protocol(version);
        session.replies().protocol(version == 3);
        final List<Map.Entry<String, Object>> fields = List.of(Map.entry("server", "redis"),
            Map.entry("version", ServerInfo.REDIS_VERSION), Map.entry("proto", (long)version),
            Map.entry("id", session.id()), Map.entry("mode", "standalone"), Map.entry("role", "master"));
        final List<RedisMessage> map = new ArrayList<>();
        for (final Map.Entry<String, Object> field : fields)
        {
            map.add(Replies.bulk(field.getKey()));
            map.add(Replies.value(field.getValue()));
        }
        map.add(Replies.bulk("modules"));
        map.add(new ArrayRedisMessage(List.of(module())));
        session.replies().ready(Replies.map(map));
    }

    /** INFO [section ...]: after the connection's own elements are judged, so its counts include them. */
    private void info(final Session session, final ByteBuf[] args)
    {
        if (session.deferUntilJudged(args))
        {
            return;
        }
        final List<String> sections = new ArrayList<>();
        for (int i = 1; i < args.length; i++)
        {
            sections.add(Replies.word(args[i]));
        }
        session.replies().ready(Replies.verbatim(InfoSections.select(info.get().info(), sections)));
    }

    private void select(final Session session, final ByteBuf[] args)
    {
        if (Replies.integer(args[1], "ERR value is not an integer or out of range") != 0)
        {
            throw new RespError("ERR DB index is out of range");
        }
        session.replies().ready(Replies.OK);
    }

    /** CLIENT ID, GETNAME, SETNAME, INFO, LIST [TYPE normal] [ID id...], SETINFO and the flags libraries send. */
    private void client(final Session session, final ByteBuf[] args)
    {
        final String sub = Replies.word(args[1]);
        switch (sub)
        {
            case "setname" ->
            {
                exactly(args, 3, "client|setname");
                session.name(args[2].toString(StandardCharsets.UTF_8));
                session.replies().ready(Replies.OK);
            }
            case "setinfo" ->
            {
                exactly(args, 4, "client|setinfo");
                session.setInfo(Replies.word(args[2]), args[3].toString(StandardCharsets.UTF_8));
                session.replies().ready(Replies.OK);
            }
            case "no-evict", "no-touch" -> session.replies().ready(Replies.OK);
            case "reply" -> reply(session, args);
            case "help" ->
            {
                exactly(args, 2, "client|help");
                session.replies().ready(Replies.statuses(CLIENT_HELP));
            }
            case "getname" ->
            {
                exactly(args, 2, "client|getname");
                final String name = session.name();
                session.replies().ready(name.isEmpty() ? Replies.nil() : Replies.bulk(name));
            }
            case "id" ->
            {
                exactly(args, 2, "client|id");
                session.replies().ready(new IntegerRedisMessage(session.id()));
            }
            case "info" ->
            {
                exactly(args, 2, "client|info");
                session.replies().ready(Replies.verbatim(session.describe() + "\n"));
            }
            case "list" -> session.replies().ready(Replies.verbatim(clientList(args)));
            default -> throw new RespError("ERR unknown subcommand '" + sub + "'. Try CLIENT HELP.");
        }
    }

    /**
     * CLIENT REPLY ON answers OK; OFF and SKIP are refused rather than accepted and ignored, which would leave a
     * client waiting for replies it had asked not to get (or reading them as answers to later commands). Not
     * implemented yet: every command takes its place in the {@link ReplyWriter}'s order as it runs, so OFF and SKIP
     * would be a flag there that drops the replies of the places it covers.
     */
    private static void reply(final Session session, final ByteBuf[] args)
    {
        exactly(args, 3, "client|reply");
        final String mode = Replies.word(args[2]);
        switch (mode)
        {
            case "on" -> session.replies().ready(Replies.OK);
            case "off", "skip" -> throw new RespError("ERR CLIENT REPLY " + mode.toUpperCase(Locale.ROOT) +
                " is not supported by ddf: every command is answered (CLIENT REPLY ON is accepted)");
            default -> throw new RespError("ERR syntax error");
        }
    }

    /** The parameters CONFIG SET takes: the TLS files, which it reads again (Redis's way to renew a certificate). */
    private static final java.util.Set<String> TLS_FILES = java.util.Set.of("tls-cert-file", "tls-key-file",
        "tls-ca-cert-file", "tls-ca-cert-dir");

    /**
     * CONFIG SET parameter value [parameter value ...]: the TLS files only, re-read even when the path is the same,
     * all applied or none; any other parameter is refused (restart with other options).
     */
    private void configSet(final Session session, final ByteBuf[] args)
    {
        if (args.length < 4 || args.length % 2 != 0)
        {
            throw Command.wrongArity("config|set");
        }
        final Map<String, java.nio.file.Path> files = new java.util.LinkedHashMap<>();
        for (int i = 2; i < args.length; i += 2)
        {
            final String name = Replies.word(args[i]);
            if (!TLS_FILES.contains(name))
            {
                throw new RespError("ERR CONFIG SET is not supported by ddf but for the tls-* files; restart with " +
                    "other options");
            }
            files.put(name, java.nio.file.Path.of(args[i + 1].toString(StandardCharsets.UTF_8)));
        }
        final String refused = security.get().setTlsFiles(files);
        if (refused != null)
        {
            throw new RespError("ERR CONFIG SET failed (possibly related to argument '" +
                files.keySet().iterator().next() + "') - " + refused);
        }
        session.replies().ready(Replies.OK);
    }

    /** CLIENT LIST's filters: TYPE normal (every RESP client is) and ID id... */
    private String clientList(final ByteBuf[] args)
    {
        if (args.length == 2)
        {
            return info.get().clientList(-1);
        }
        final String option = Replies.word(args[2]);
        if (option.equals("type") && args.length == 4)
        {
            final String type = Replies.word(args[3]);
            return switch (type)
            {
                case "normal" -> info.get().clientList(-1);
                case "master", "replica", "slave", "pubsub" -> "";
                default -> throw new RespError("ERR Unknown client type '" + type + "'");
            };
        }
        if (option.equals("id") && args.length > 3)
        {
            final StringBuilder text = new StringBuilder();
            for (int i = 3; i < args.length; i++)
            {
                final long id = Replies.integer(args[i], "ERR Invalid client ID");
                if (id <= 0)
                {
                    throw new RespError("ERR Invalid client ID");
                }
                text.append(info.get().clientList(id));
            }
            return text.toString();
        }
        throw new RespError("ERR syntax error");
    }

    private static void exactly(final ByteBuf[] args, final int count, final String name)
    {
        if (args.length != count)
        {
            throw Command.wrongArity(name);
        }
    }

    private void config(final Session session, final ByteBuf[] args)
    {
        final String sub = Replies.word(args[1]);
        switch (sub)
        {
            case "get" ->
            {
                if (args.length < 3)
                {
                    throw Command.wrongArity("config|get");
                }
                final List<RedisMessage> pairs = new ArrayList<>();
                for (final Map.Entry<String, String> e : info.get().configValues().entrySet())
                {
                    for (int i = 2; i < args.length; i++)
                    {
                        if (Glob.matches(Replies.word(args[i]), e.getKey()))
                        {
                            pairs.add(Replies.bulk(e.getKey()));
                            pairs.add(Replies.bulk(e.getValue()));
                            break;
                        }
                    }
                }
                session.replies().ready(Replies.map(pairs));
            }
            case "resetstat" ->
            {
                table.resetStats();
                session.replies().ready(Replies.OK);
            }
            case "set" -> configSet(session, args);
            default -> throw new RespError("ERR unknown subcommand '" + sub + "'. Try CONFIG HELP.");
        }
    }

    private void existsKeys(final Session session, final ByteBuf[] args)
    {
        long count = 0;
        for (int i = 1; i < args.length; i++)
        {
            final String key = Replies.key(args[i]);
            if (store.kind(key) != FilterStore.Kind.NONE)
            {
                count++;
            }
        }
        session.replies().ready(new IntegerRedisMessage(count));
    }

    private void type(final Session session, final ByteBuf[] args)
    {
        final String key = Replies.key(args[1]);
        session.replies().ready(new SimpleStringRedisMessage(FilterTypes.type(store, key)));
    }

    private void del(final Session session, final ByteBuf[] args)
    {
        long count = 0;
        for (int i = 1; i < args.length; i++)
        {
            if (store.delete(Replies.key(args[i]), drain))
            {
                count++;
            }
        }
        session.replies().ready(new IntegerRedisMessage(count));
    }

    /**
     * @return the {@code bf} module as HELLO's {@code modules} and MODULE LIST describe a loaded one: name, version,
     *         path (ddf's own: nothing is loaded) and arguments; a map in RESP3.
     */
    static RedisMessage module()
    {
        return Replies.map(List.of(Replies.bulk("name"), Replies.bulk(MODULE_NAME), Replies.bulk("ver"),
            new IntegerRedisMessage(MODULE_VERSION), Replies.bulk("path"), Replies.bulk("ddf (built in)"),
            Replies.bulk("args"), Replies.empty()));
    }

    /** MODULE LIST and MODULE HELP; LOAD, UNLOAD and the rest are refused (ddf loads nothing). */
    private static void moduleCommand(final Session session, final ByteBuf[] args)
    {
        final String sub = Replies.word(args[1]);
        if (sub.equals("list") && args.length == 2)
        {
            session.replies().ready(new ArrayRedisMessage(List.of(module())));
            return;
        }
        if (sub.equals("help") && args.length == 2)
        {
            session.replies().ready(Replies.statuses(List.of("MODULE <subcommand> [<arg> ...]. Subcommands are:",
                "LIST", "    The modules loaded: bf, RedisBloom's commands (ddf serves them; nothing can be loaded).",
                "HELP", "    Prints this help.")));
            return;
        }
        throw new RespError("ERR unknown subcommand or wrong number of arguments for '" + sub + "'. Try MODULE HELP" +
            " (ddf loads no module: it serves RedisBloom's commands itself).");
    }
}
