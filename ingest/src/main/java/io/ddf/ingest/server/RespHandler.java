package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.pipeline.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One RESP2 connection: decodes commands (Netty's codec does the framing), runs them, and writes the replies
 * strictly in request order. Elements go through the daemon's pipeline; a reply that waits for verdicts holds back
 * every reply after it ({@link Pending}).
 */
final class RespHandler extends Connection
{
    private static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    private static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");
    private static final IntegerRedisMessage ONE = new IntegerRedisMessage(1);
    private static final IntegerRedisMessage ZERO = new IntegerRedisMessage(0);
    private static final ErrorRedisMessage NOAUTH = new ErrorRedisMessage("NOAUTH Authentication required.");
    private static final ErrorRedisMessage MAX_CLIENTS = new ErrorRedisMessage("ERR max number of clients reached");

    private final DdfServer server;
    private final ArrayDeque<Pending> replies = new ArrayDeque<>();
    private final UnsafeBuffer direct = new UnsafeBuffer(0, 0);
    private final byte[] scratch;
    private boolean authenticated;
    private boolean registered;
    private boolean closing;
    private boolean failed;
    private boolean counted;

    /** @param server the daemon. */
    RespHandler(final DdfServer server)
    {
        this.server = server;
        this.authenticated = server.config().requirePass == null;
        this.scratch = new byte[server.judge().maxElementBytes()];
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        server.connectionsReceived.increment();
        counted = true;
        if (server.clients.incrementAndGet() > server.config().maxClients)
        {
            refuse(ctx);
            return;
        }
        final long tag = server.router().register(this);
        if (tag < 0)
        {
            refuse(ctx);
            return;
        }
        tag(tag);
        registered = true;
        ctx.fireChannelActive();
    }

    private void refuse(final ChannelHandlerContext ctx)
    {
        closing = true;
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(MAX_CLIENTS).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        closing = true;
        if (counted)
        {
            server.clients.decrementAndGet();
            counted = false;
        }
        if (registered)
        {
            server.router().unregister(tag());
            registered = false;
        }
        drop();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        try
        {
            if (closing || failed || !ctx.channel().isActive())
            {
                return;
            }
            if (msg instanceof RespGuard.ProtocolError)
            {
                protocolError(((RespGuard.ProtocolError)msg).message());
                return;
            }
            if (msg instanceof ArrayRedisMessage)
            {
                final List<RedisMessage> children = ((ArrayRedisMessage)msg).children();
                if (children.isEmpty())
                {
                    return;
                }
                final ByteBuf[] args = new ByteBuf[children.size()];
                for (int i = 0; i < args.length; i++)
                {
                    final RedisMessage child = children.get(i);
                    if (!(child instanceof FullBulkStringRedisMessage) || ((FullBulkStringRedisMessage)child).isNull())
                    {
                        protocolError("Protocol error: expected '$'");
                        return;
                    }
                    args[i] = ((FullBulkStringRedisMessage)child).content();
                }
                execute(args);
            }
            else if (msg instanceof InlineCommandRedisMessage)
            {
                final String line = ((InlineCommandRedisMessage)msg).content().strip();
                if (line.isEmpty())
                {
                    return;
                }
                final String[] words = line.split("\\s+");
                final ByteBuf[] args = new ByteBuf[words.length];
                for (int i = 0; i < words.length; i++)
                {
                    args[i] = Unpooled.wrappedBuffer(words[i].getBytes(StandardCharsets.UTF_8));
                }
                execute(args);
            }
            else
            {
                protocolError("Protocol error: expected a command (an array of bulk strings)");
            }
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        onVerdicts();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (!ctx.channel().isWritable() && !closing)
        {
            overLimit();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof IdleStateEvent)
        {
            closing = true;
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof DecoderException)
        {
            final Throwable root = cause.getCause() != null ? cause.getCause() : cause;
            protocolError("Protocol error: " + FilterStore.oneLine(root));
            onVerdicts();
            return;
        }
        if (!(cause instanceof IOException))
        {
            server.log("ddf: closing a client connection: " + FilterStore.oneLine(cause));
        }
        closing = true;
        ctx.close();
    }

    private void protocolError(final String message)
    {
        if (failed)
        {
            return;
        }
        failed = true;
        ctx.channel().config().setAutoRead(false);
        replies.add(Pending.ready(new ErrorRedisMessage("ERR " + message), true));
    }

    private void overLimit()
    {
        closing = true;
        ctx.close();
    }

    /** Drops every reply not yet written. */
    private void drop()
    {
        Pending p;
        while ((p = replies.poll()) != null)
        {
            if (p.message != null)
            {
                ReferenceCountUtil.release(p.message);
            }
        }
        while (available() > 0)
        {
            next();
        }
    }

    @Override
    void onVerdicts()
    {
        if (closing)
        {
            drop();
            return;
        }
        boolean wrote = false;
        Pending p;
        while ((p = replies.peek()) != null)
        {
            if (p.type == Pending.READY)
            {
                replies.poll();
                ctx.write(p.message);
                wrote = true;
                if (p.closeAfter)
                {
                    closing = true;
                    ctx.flush();
                    ctx.close();
                    drop();
                    return;
                }
                continue;
            }
            final int available = available();
            if (available == 0)
            {
                break;
            }
            if (p.type == Pending.ONE)
            {
                replies.poll();
                ctx.write(next() != p.add ? ONE : ZERO);
                wrote = true;
                continue;
            }
            final int take = Math.min(available, p.count - p.filled);
            for (int i = 0; i < take; i++)
            {
                p.values[p.filled++] = (byte)(next() != p.add ? 1 : 0);
            }
            if (p.filled < p.count)
            {
                break;
            }
            replies.poll();
            final List<RedisMessage> values = new ArrayList<>(p.count);
            for (final byte value : p.values)
            {
                values.add(value != 0 ? ONE : ZERO);
            }
            ctx.write(new ArrayRedisMessage(values));
            wrote = true;
        }
        if (wrote)
        {
            ctx.flush();
            if (!ctx.channel().isWritable())
            {
                overLimit();
            }
        }
    }

    private void reply(final RedisMessage message)
    {
        replies.add(Pending.ready(message, false));
    }

    private void error(final String message)
    {
        reply(new ErrorRedisMessage(message));
    }

    private void execute(final ByteBuf[] args)
    {
        server.commandsProcessed.increment();
        final String name = args[0].toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (!authenticated && !name.equals("auth") && !name.equals("hello") && !name.equals("quit"))
        {
            reply(NOAUTH);
            return;
        }
        try
        {
            switch (name)
            {
                case "bf.add" -> add(args, name);
                case "bf.madd" -> madd(args, name);
                case "bf.exists" -> exists(args, name);
                case "bf.mexists" -> mexists(args, name);
                case "bf.reserve" -> reserve(args, name);
                case "bf.info" -> bfInfo(args, name);
                case "bf.card" -> card(args, name);
                case "ping" -> ping(args, name);
                case "echo" -> echo(args, name);
                case "quit" -> replies.add(Pending.ready(OK, true));
                case "auth" -> auth(args, name);
                case "hello" -> hello(args, name);
                case "select" -> select(args, name);
                case "client" -> client(args, name);
                case "command" -> command(args);
                case "config" -> config(args, name);
                case "info" -> reply(bulk(server.info()));
                case "dbsize" -> reply(new IntegerRedisMessage(server.store().size()));
                case "exists" -> existsKeys(args, name);
                case "type" -> type(args, name);
                case "del", "unlink" -> del(args, name);
                default -> unknown(args);
            }
        }
        catch (final RespError e)
        {
            error(e.getMessage());
        }
    }

    private static void arity(final ByteBuf[] args, final int min, final int max, final String name)
    {
        if (args.length < min || args.length > max)
        {
            throw new RespError("ERR wrong number of arguments for '" + name + "' command");
        }
    }

    private void unknown(final ByteBuf[] args)
    {
        final StringBuilder message = new StringBuilder("ERR unknown command '")
            .append(printable(args[0])).append("', with args beginning with: ");
        for (int i = 1; i < args.length && i < 4; i++)
        {
            message.append('\'').append(printable(args[i])).append("' ");
        }
        error(message.toString());
    }

    private static String printable(final ByteBuf arg)
    {
        final String text = arg.toString(StandardCharsets.UTF_8);
        final String shortened = text.length() > 128 ? text.substring(0, 128) : text;
        return shortened.replaceAll("[\\p{Cntrl}]", "?");
    }

    private static String key(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.ISO_8859_1);
    }

    private static FullBulkStringRedisMessage bulk(final String text)
    {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    private void checkItem(final ByteBuf item)
    {
        final int max = server.judge().maxElementBytes();
        if (item.readableBytes() > max)
        {
            throw new RespError("ERR item of " + item.readableBytes() + " bytes is longer than the " + max +
                "-byte limit");
        }
    }

    private void publish(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        reserve(1);
        final int length = item.readableBytes();
        if (item.hasArray())
        {
            server.judge().publish(filter, operation, item.array(), item.arrayOffset() + item.readerIndex(), length,
                tag());
        }
        else if (item.hasMemoryAddress())
        {
            direct.wrap(item.memoryAddress() + item.readerIndex(), length);
            server.judge().publish(filter, operation, direct, 0, length, tag());
        }
        else
        {
            item.getBytes(item.readerIndex(), scratch, 0, length);
            server.judge().publish(filter, operation, scratch, 0, length, tag());
        }
        published();
    }

    private void add(final ByteBuf[] args, final String name)
    {
        arity(args, 3, 3, name);
        checkItem(args[2]);
        final DuplicateFilter filter = server.store().acquire(key(args[1]), server::defaultFilter);
        try
        {
            replies.add(Pending.ADD_ONE);
            publish(filter, Operation.STREAM, args[2]);
        }
        finally
        {
            server.store().readLock().unlock();
        }
    }

    private void madd(final ByteBuf[] args, final String name)
    {
        arity(args, 3, Integer.MAX_VALUE, name);
        for (int i = 2; i < args.length; i++)
        {
            checkItem(args[i]);
        }
        final DuplicateFilter filter = server.store().acquire(key(args[1]), server::defaultFilter);
        try
        {
            replies.add(Pending.many(true, args.length - 2));
            for (int i = 2; i < args.length; i++)
            {
                publish(filter, Operation.STREAM, args[i]);
            }
        }
        finally
        {
            server.store().readLock().unlock();
        }
    }

    private void exists(final ByteBuf[] args, final String name)
    {
        arity(args, 3, 3, name);
        checkItem(args[2]);
        final DuplicateFilter filter = server.store().acquire(key(args[1]), null);
        if (filter == null)
        {
            reply(ZERO);
            return;
        }
        try
        {
            replies.add(Pending.EXISTS_ONE);
            publish(filter, Operation.CONTAINS, args[2]);
        }
        finally
        {
            server.store().readLock().unlock();
        }
    }

    private void mexists(final ByteBuf[] args, final String name)
    {
        arity(args, 3, Integer.MAX_VALUE, name);
        for (int i = 2; i < args.length; i++)
        {
            checkItem(args[i]);
        }
        final DuplicateFilter filter = server.store().acquire(key(args[1]), null);
        if (filter == null)
        {
            final List<RedisMessage> zeros = new ArrayList<>();
            for (int i = 2; i < args.length; i++)
            {
                zeros.add(ZERO);
            }
            reply(new ArrayRedisMessage(zeros));
            return;
        }
        try
        {
            replies.add(Pending.many(false, args.length - 2));
            for (int i = 2; i < args.length; i++)
            {
                publish(filter, Operation.CONTAINS, args[i]);
            }
        }
        finally
        {
            server.store().readLock().unlock();
        }
    }

    private void reserve(final ByteBuf[] args, final String name)
    {
        arity(args, 4, Integer.MAX_VALUE, name);
        final double errorRate;
        try
        {
            errorRate = Double.parseDouble(args[2].toString(StandardCharsets.US_ASCII));
        }
        catch (final NumberFormatException e)
        {
            throw new RespError("ERR bad error rate");
        }
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new RespError("ERR (0 < error rate range < 1)");
        }
        final long capacity = integer(args[3], "ERR bad capacity");
        if (capacity <= 0)
        {
            throw new RespError("ERR (capacity should be larger than 0)");
        }
        server.store().reserve(key(args[1]), reserveBuilder(args, capacity, errorRate));
        reply(OK);
    }

    /** BF.RESERVE's options after the capacity, by {@link ReserveOptions}. */
    static FilterBuilder reserveBuilder(final ByteBuf[] args, final long capacity, final double errorRate)
    {
        final List<String> options = new ArrayList<>();
        for (int i = 4; i < args.length; i++)
        {
            options.add(args[i].toString(StandardCharsets.UTF_8));
        }
        return ReserveOptions.builder(options, capacity, errorRate);
    }

    private static long integer(final ByteBuf arg, final String error)
    {
        return integer(arg.toString(StandardCharsets.US_ASCII), error);
    }

    private static long integer(final String text, final String error)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException e)
        {
            throw new RespError(error);
        }
    }

    private void bfInfo(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 3, name);
        final DuplicateFilter filter = server.store().acquire(key(args[1]), null);
        if (filter == null)
        {
            throw new RespError("ERR not found");
        }
        final List<RedisMessage> info = new ArrayList<>();
        try
        {
            if (args.length == 3)
            {
                info.add(message(BloomInfo.field(filter, args[2].toString(StandardCharsets.UTF_8))));
            }
            else
            {
                for (final Map.Entry<String, Object> field : BloomInfo.fields(filter))
                {
                    info.add(bulk(field.getKey()));
                    info.add(message(field.getValue()));
                }
            }
        }
        catch (final RespError e)
        {
            info.forEach(ReferenceCountUtil::release);
            throw e;
        }
        finally
        {
            server.store().readLock().unlock();
        }
        reply(new ArrayRedisMessage(info));
    }

    /** A BF.INFO value: a Long as an integer, a String as a bulk string, null as nil. */
    private static RedisMessage message(final Object value)
    {
        if (value == null)
        {
            return FullBulkStringRedisMessage.NULL_INSTANCE;
        }
        return value instanceof Long number ? new IntegerRedisMessage(number) : bulk((String)value);
    }

    private void card(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 2, name);
        final DuplicateFilter filter = server.store().acquire(key(args[1]), null);
        if (filter == null)
        {
            reply(ZERO);
            return;
        }
        try
        {
            reply(new IntegerRedisMessage(filter.elements() - filter.duplicates()));
        }
        finally
        {
            server.store().readLock().unlock();
        }
    }

    private void ping(final ByteBuf[] args, final String name)
    {
        arity(args, 1, 2, name);
        reply(args.length == 1 ? PONG : new FullBulkStringRedisMessage(args[1].retainedDuplicate()));
    }

    private void echo(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 2, name);
        reply(new FullBulkStringRedisMessage(args[1].retainedDuplicate()));
    }

    private boolean passwordMatches(final ByteBuf password)
    {
        final String expected = server.config().requirePass;
        final byte[] given = new byte[password.readableBytes()];
        password.getBytes(password.readerIndex(), given);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given);
    }

    private void authenticate(final ByteBuf user, final ByteBuf password)
    {
        if (server.config().requirePass == null)
        {
            throw new RespError("ERR AUTH <password> called without any password configured for the default " +
                "user. Are you sure your configuration is correct?");
        }
        if ((user != null && !"default".equals(user.toString(StandardCharsets.UTF_8))) || !passwordMatches(password))
        {
            throw new RespError("WRONGPASS invalid username-password pair or user is disabled.");
        }
        authenticated = true;
    }

    private void auth(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 3, name);
        authenticate(args.length == 3 ? args[1] : null, args[args.length - 1]);
        reply(OK);
    }

    private void hello(final ByteBuf[] args, final String name)
    {
        int i = 1;
        if (args.length > 1)
        {
            final long version = integer(args[1], "ERR Protocol version is not an integer or out of range");
            if (version != 2)
            {
                throw new RespError("NOPROTO sorry, this protocol version is not supported");
            }
            i = 2;
        }
        for (; i < args.length; i++)
        {
            final String option = args[i].toString(StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            if (option.equals("auth") && i + 2 < args.length)
            {
                authenticate(args[i + 1], args[i + 2]);
                i += 2;
            }
            else if (option.equals("setname") && i + 1 < args.length)
            {
                i++;
            }
            else
            {
                throw new RespError("ERR Syntax error in HELLO option '" + option + "'");
            }
        }
        if (!authenticated)
        {
            reply(NOAUTH);
            return;
        }
        final List<RedisMessage> map = new ArrayList<>();
        map.add(bulk("server"));
        map.add(bulk("redis"));
        map.add(bulk("version"));
        map.add(bulk(DdfServer.REDIS_VERSION));
        map.add(bulk("proto"));
        map.add(new IntegerRedisMessage(2));
        map.add(bulk("id"));
        map.add(new IntegerRedisMessage(tag() >>> VerdictRouter.SLOT_BITS));
        map.add(bulk("mode"));
        map.add(bulk("standalone"));
        map.add(bulk("role"));
        map.add(bulk("master"));
        map.add(bulk("modules"));
        map.add(new ArrayRedisMessage(new ArrayList<>()));
        reply(new ArrayRedisMessage(map));
    }

    private void select(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 2, name);
        if (integer(args[1], "ERR value is not an integer or out of range") != 0)
        {
            throw new RespError("ERR DB index is out of range");
        }
        reply(OK);
    }

    private void client(final ByteBuf[] args, final String name)
    {
        arity(args, 2, Integer.MAX_VALUE, name);
        final String sub = args[1].toString(StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        switch (sub)
        {
            case "setname", "setinfo", "no-evict", "no-touch", "reply" -> reply(OK);
            case "getname" -> reply(FullBulkStringRedisMessage.NULL_INSTANCE);
            case "id" -> reply(new IntegerRedisMessage(tag() >>> VerdictRouter.SLOT_BITS));
            default -> throw new RespError("ERR unknown subcommand '" + sub + "'. Try CLIENT HELP.");
        }
    }

    private void command(final ByteBuf[] args)
    {
        final String sub = args.length > 1 ? args[1].toString(StandardCharsets.UTF_8).toLowerCase(Locale.ROOT) : "";
        switch (sub)
        {
            case "count" -> reply(new IntegerRedisMessage(DdfServer.COMMANDS.size()));
            case "info" ->
            {
                final List<RedisMessage> nils = new ArrayList<>();
                for (int i = 2; i < args.length; i++)
                {
                    nils.add(ArrayRedisMessage.NULL_INSTANCE);
                }
                reply(new ArrayRedisMessage(nils));
            }
            case "list" ->
            {
                final List<RedisMessage> names = new ArrayList<>();
                DdfServer.COMMANDS.forEach(c -> names.add(bulk(c)));
                reply(new ArrayRedisMessage(names));
            }
            default -> reply(new ArrayRedisMessage(new ArrayList<>()));
        }
    }

    private void config(final ByteBuf[] args, final String name)
    {
        arity(args, 2, Integer.MAX_VALUE, name);
        final String sub = args[1].toString(StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        switch (sub)
        {
            case "get" ->
            {
                arity(args, 3, Integer.MAX_VALUE, "config|get");
                final List<RedisMessage> pairs = new ArrayList<>();
                for (final Map.Entry<String, String> e : server.configValues().entrySet())
                {
                    for (int i = 2; i < args.length; i++)
                    {
                        if (Glob.matches(args[i].toString(StandardCharsets.UTF_8).toLowerCase(Locale.ROOT), e.getKey()))
                        {
                            pairs.add(bulk(e.getKey()));
                            pairs.add(bulk(e.getValue()));
                            break;
                        }
                    }
                }
                reply(new ArrayRedisMessage(pairs));
            }
            case "resetstat" -> reply(OK);
            case "set" -> throw new RespError("ERR CONFIG SET is not supported by ddf; restart with other options");
            default -> throw new RespError("ERR unknown subcommand '" + sub + "'. Try CONFIG HELP.");
        }
    }

    private void existsKeys(final ByteBuf[] args, final String name)
    {
        arity(args, 2, Integer.MAX_VALUE, name);
        long count = 0;
        for (int i = 1; i < args.length; i++)
        {
            final String key = key(args[i]);
            if (server.store().get(key) != null || server.store().isForeign(key))
            {
                count++;
            }
        }
        reply(new IntegerRedisMessage(count));
    }

    private void type(final ByteBuf[] args, final String name)
    {
        arity(args, 2, 2, name);
        final String key = key(args[1]);
        reply(new SimpleStringRedisMessage(server.store().get(key) != null ? "MBbloom--" :
            server.store().isForeign(key) ? "unknown" : "none"));
    }

    private void del(final ByteBuf[] args, final String name)
    {
        arity(args, 2, Integer.MAX_VALUE, name);
        long count = 0;
        for (int i = 1; i < args.length; i++)
        {
            if (server.store().delete(key(args[i]), server::drain))
            {
                count++;
            }
        }
        reply(new IntegerRedisMessage(count));
    }
}
