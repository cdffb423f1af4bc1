package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.FilterWords;
import io.ddf.engine.Filters;
import io.ddf.engine.KindParameter;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * BF.SCANDUMP and BF.LOADCHUNK, and CF.SCANDUMP and CF.LOADCHUNK the same for a cuckoo filter (each pair refuses a
 * key, or a dump, of the other family: {@link FilterTypes}): a ddf → ddf migration path in chunks of the mapped
 * file. {@code BF.SCANDUMP key 0} answers iterator 1 and the header chunk (the kind, its parameters, the hash and
 * seed: what re-creates the file);
 * {@code BF.SCANDUMP key i} for i ≥ 1 answers i + 1 and the chunk of the file's mutable words (state region, then
 * table) numbered i − 1, and iterator 0 with an empty chunk after the last. {@code BF.LOADCHUNK key i data}, given
 * each iterator and chunk in that order, makes the filter from the header chunk (refused when the key exists:
 * nothing is overwritten), then writes each table chunk.
 *
 * <p>Every chunk starts with a magic naming ddf and the format version, carries the dump's identity (a checksum of
 * the header chunk, so a chunk of another dump is refused) and its position, and ends with a CRC-32C of its bytes:
 * a foreign (RedisBloom's), truncated or corrupt chunk is refused with a clear error before anything is written.
 * Not compatible with RedisBloom's dumps in either direction (its chunks are its own structs); not for keyed
 * filters (the dump would carry the secret key off the machine), nor for kinds whose parameters cannot re-create
 * them (the count windows of the windowed kinds and the queuing construction), both refused at BF.SCANDUMP. A
 * fifo-bloom with a window of time is dumped and loaded whole, its generations' times with it: the loaded filter
 * forgets what the dumped one would have, on its own daemon's clock. A dump taken while other clients write is not a snapshot
 * (as in RedisBloom, chunks are read as they are when asked for).
 */
final class ScanDump
{
    private static final byte[] HEADER_MAGIC = "DDFDUMP1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNK_MAGIC = "DDFCHNK1".getBytes(StandardCharsets.US_ASCII);
    /** Words per table chunk: 512 KiB, below the default bulk limit. */
    static final int CHUNK_WORDS = 1 << 16;
    private static final String FOREIGN = "ERR not a ddf dump chunk (BF/CF.LOADCHUNK takes chunks of ddf's SCANDUMP;" +
        " RedisBloom's dumps cannot be loaded)";

    private final java.util.function.Consumer<DuplicateFilter> drain;
    private final FilterStore store;

    /**
     * @param store the filters.
     * @param drain returns once every element published so far for a filter has been judged.
     */
    ScanDump(final FilterStore store, final java.util.function.Consumer<DuplicateFilter> drain)
    {
        this.drain = drain;
        this.store = store;
    }

    /**
     * @param key   a LOADCHUNK's key.
     * @param chunk its data.
     * @return whether this class loads it: the key holds a fixed-size filter, or is missing and the chunk is of a
     *         ddf dump of one (its magic); RedisBloom's dumps and a chain's load into the filters that grow.
     */
    boolean loads(final String key, final ByteBuf chunk)
    {
        final FilterStore.Kind kind = store.kind(key);
        return kind == FilterStore.Kind.FIXED || kind == FilterStore.Kind.NONE && ddfChunk(chunk);
    }

    private static boolean ddfChunk(final ByteBuf chunk)
    {
        return startsWith(chunk, HEADER_MAGIC) || startsWith(chunk, CHUNK_MAGIC);
    }

    private static boolean startsWith(final ByteBuf chunk, final byte[] magic)
    {
        if (chunk.readableBytes() < magic.length)
        {
            return false;
        }
        for (int i = 0; i < magic.length; i++)
        {
            if (chunk.getByte(chunk.readerIndex() + i) != magic[i])
            {
                return false;
            }
        }
        return true;
    }

    /** @param cuckoo whether this is CF.SCANDUMP. */
    void scandump(final Session session, final ByteBuf[] args, final boolean cuckoo)
    {
        final long iterator = Replies.integer(args[2], "ERR invalid iterator");
        if (iterator < 0)
        {
            throw new RespError("ERR invalid iterator");
        }
        try (FilterStore.Lease lease = FilterTypes.lease(store, Replies.key(args[1]), cuckoo))
        {
            if (lease == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            final byte[] header = header(filter);
            if (iterator == 0)
            {
                session.replies().ready(reply(1, header));
                return;
            }
            final FilterWords words = Filters.mutableWords(filter);
            final long start = (iterator - 1) * CHUNK_WORDS;
            if (start >= words.words())
            {
                session.replies().ready(reply(0, new byte[0]));
                return;
            }
            final int count = (int)Math.min(CHUNK_WORDS, words.words() - start);
            final ByteBuffer chunk = ByteBuffer.allocate(CHUNK_MAGIC.length + 8 + 8 + 4 + count * 8 + 4)
                .order(ByteOrder.LITTLE_ENDIAN);
            chunk.put(CHUNK_MAGIC).putLong(identity(header)).putLong(start).putInt(count);
            for (int i = 0; i < count; i++)
            {
                chunk.putLong(words.getPlain(start + i));
            }
            session.replies().ready(reply(iterator + 1, sealed(chunk)));
        }
    }

    /** The header chunk: magic, then "name=value" lines (kind, seed, words, each parameter), then the CRC. */
    private static byte[] header(final DuplicateFilter filter)
    {
        final FilterParameters p = filter.parameters();
        if (p.keyed())
        {
            throw new RespError("ERR a keyed filter is not dumped: its chunks would carry the secret key");
        }
        if (p.kind() == FilterKind.QUEUE || filter.parameters().toMap().containsKey("subfilters"))
        {
            throw new RespError("ERR a windowed filter cannot be dumped: its parameters do not re-create it");
        }
        final StringBuilder text = new StringBuilder();
        text.append("kind=").append(p.kind().cliName()).append('\n');
        text.append("hash=").append(p.hashAlgorithm().code()).append('\n');
        text.append("seed=").append(p.seed()).append('\n');
        text.append("words=").append(Filters.mutableWords(filter).words()).append('\n');
        for (final KindParameter def : p.kind().parameters())
        {
            text.append(def.name()).append('=').append(def.format(p.get(def.name()))).append('\n');
        }
        final byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        final ByteBuffer chunk = ByteBuffer.allocate(HEADER_MAGIC.length + body.length + 4)
            .order(ByteOrder.LITTLE_ENDIAN);
        chunk.put(HEADER_MAGIC).put(body);
        return sealed(chunk);
    }

    /** Appends the CRC-32C of the bytes before it (the buffer has exactly 4 bytes left). */
    private static byte[] sealed(final ByteBuffer chunk)
    {
        final CRC32C crc = new CRC32C();
        crc.update(chunk.array(), 0, chunk.position());
        chunk.putInt((int)crc.getValue());
        return chunk.array();
    }

    /** @return the bytes without their CRC, or a refusal naming what is wrong. */
    private static byte[] verified(final byte[] chunk, final byte[] magic)
    {
        if (chunk.length < magic.length + 4 || !Arrays.equals(chunk, 0, magic.length, magic, 0, magic.length))
        {
            throw new RespError(FOREIGN);
        }
        final CRC32C crc = new CRC32C();
        crc.update(chunk, 0, chunk.length - 4);
        final int stored = ByteBuffer.wrap(chunk, chunk.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if ((int)crc.getValue() != stored)
        {
            throw new RespError("ERR corrupt dump chunk: its checksum does not match its bytes (truncated or " +
                "altered in transit); nothing was written");
        }
        return Arrays.copyOf(chunk, chunk.length - 4);
    }

    private static long identity(final byte[] header)
    {
        final CRC32C crc = new CRC32C();
        crc.update(header);
        return crc.getValue() << 32 | header.length;
    }

    private static ArrayRedisMessage reply(final long iterator, final byte[] data)
    {
        return new ArrayRedisMessage(List.of(Replies.integer(iterator),
            new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(data))));
    }

    /** @param cuckoo whether this is CF.LOADCHUNK. */
    void loadchunk(final Session session, final ByteBuf[] args, final boolean cuckoo)
    {
        final long iterator = Replies.integer(args[2], "ERR invalid iterator");
        final byte[] data = ByteBufUtil.getBytes(args[3]);
        final String key = Replies.key(args[1]);
        FilterTypes.require(store, key, cuckoo); // WRONGTYPE comes before any complaint about the chunk
        if (iterator == 1)
        {
            final byte[] header = verified(data, HEADER_MAGIC);
            final FilterBuilder builder = builder(header);
            session.await(store.create(key, () -> builder, true), () -> checkRecreated(session, key, data, cuckoo));
            return;
        }
        if (iterator < 2)
        {
            throw new RespError("ERR invalid iterator");
        }
        final ByteBuffer chunk = ByteBuffer.wrap(verified(data, CHUNK_MAGIC)).order(ByteOrder.LITTLE_ENDIAN);
        chunk.position(CHUNK_MAGIC.length);
        final long dump = chunk.getLong();
        final long start = chunk.getLong();
        final int count = chunk.getInt();
        if (start != (iterator - 2) * CHUNK_WORDS || chunk.remaining() != (long)count * 8)
        {
            throw new RespError("ERR dump chunk out of place: iterator " + iterator + " does not go with the chunk " +
                "of words " + start + ".. (give each chunk with the iterator BF.SCANDUMP answered beside it)");
        }
        try (FilterStore.Lease lease = FilterTypes.lease(store, key, cuckoo))
        {
            if (lease == null)
            {
                throw new RespError("ERR not found: load the header chunk (iterator 1) first");
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            if (identity(header(filter)) != dump)
            {
                throw new RespError("ERR dump chunk of another filter: its header does not match " + key +
                    "'s; nothing was written");
            }
            final FilterWords words = Filters.mutableWords(filter);
            if (start + count > words.words())
            {
                throw new RespError("ERR dump chunk past the end of " + key + "'s table; nothing was written");
            }
            for (int i = 0; i < count; i++)
            {
                words.putPlain(start + i, chunk.getLong());
            }
            session.replies().wrote(filter);
            session.replies().ready(Replies.OK);
        }
    }

    /**
     * After the header chunk made the filter: if its header differs from the dump's (a parameter the builder does
     * not reproduce), deletes it again and refuses, so that no table chunk is written into a different layout.
     */
    private void checkRecreated(final Session session, final String key, final byte[] dumped, final boolean cuckoo)
    {
        final boolean same;
        final boolean counting;
        try (FilterStore.Lease lease = store.acquire(key))
        {
            same = lease != null && Arrays.equals(header(lease.filter()), dumped);
            counting = lease != null && lease.filter().counting();
        }
        if (same && counting != cuckoo)
        {
            // the other family's dump: the key would hold a filter this family's commands refuse
            store.delete(key, drain);
            session.replies().error(counting ? "ERR the dump is of a cuckoo filter: load it with CF.LOADCHUNK; " +
                "nothing was loaded" : "ERR the dump is of a Bloom-family filter: load it with BF.LOADCHUNK; " +
                "nothing was loaded");
            return;
        }
        if (same)
        {
            session.replies().ready(Replies.OK);
            return;
        }
        store.delete(key, drain);
        session.replies().error("ERR this daemon cannot re-create the dumped filter exactly (its parameters " +
            "resolve to another layout); nothing was loaded");
    }

    /** @return the builder that re-creates the dumped filter's file, or a refusal. */
    private static FilterBuilder builder(final byte[] header)
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        for (final String line : new String(header, HEADER_MAGIC.length, header.length - HEADER_MAGIC.length,
            StandardCharsets.UTF_8).split("\n"))
        {
            final int eq = line.indexOf('=');
            if (eq > 0)
            {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try
        {
            final FilterBuilder builder = Filters.builder(FilterKind.fromName(fields.remove("kind")));
            final long hash = Long.parseLong(fields.remove("hash"));
            builder.seed(Long.parseLong(fields.remove("seed")));
            fields.remove("words");
            // a fifo-bloom's window of time: without one its slots are 0 (not given); with one, its generations are
            // 2 x its slices, which the builder derives (the dump then carries the window's times in its state)
            if (fields.getOrDefault("window-ms", "0").equals("0"))
            {
                fields.remove("window-ms");
                fields.remove("slices");
                fields.remove("time-source");
            }
            else
            {
                fields.remove("generations");
            }
            final FilterParameters defaults = builder.parameters();
            if (defaults.hashAlgorithm().code() != hash)
            {
                throw new RespError("ERR the dump's hash algorithm (code " + hash + ") is not this daemon's");
            }
            for (final KindParameter def : defaults.kind().parameters())
            {
                final String value = fields.get(def.name());
                if (value != null)
                {
                    if (def.real())
                    {
                        builder.param(def.name(), Double.parseDouble(value));
                    }
                    else
                    {
                        builder.param(def.name(), Long.parseLong(value));
                    }
                }
            }
            builder.parameters();
            return builder;
        }
        catch (final RuntimeException e)
        {
            throw e instanceof RespError r ? r : new RespError("ERR the dump's header does not describe a filter " +
                "this daemon can make: " + OneLine.of(e));
        }
    }
}
