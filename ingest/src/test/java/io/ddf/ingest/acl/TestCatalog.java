package io.ddf.ingest.acl;

import java.util.EnumSet;
import java.util.List;

import static io.ddf.ingest.acl.Category.ADMIN;
import static io.ddf.ingest.acl.Category.BLOOM;
import static io.ddf.ingest.acl.Category.CONNECTION;
import static io.ddf.ingest.acl.Category.CUCKOO;
import static io.ddf.ingest.acl.Category.DANGEROUS;
import static io.ddf.ingest.acl.Category.FAST;
import static io.ddf.ingest.acl.Category.KEYSPACE;
import static io.ddf.ingest.acl.Category.READ;
import static io.ddf.ingest.acl.Category.SLOW;
import static io.ddf.ingest.acl.Category.TRANSACTION;
import static io.ddf.ingest.acl.Category.WRITE;

/** A catalog shaped like the daemon's: Bloom and cuckoo commands, keyspace, containers with subcommands. */
public final class TestCatalog
{
    static final KeySpec READ_KEY = new KeySpec(1, 1, 1, true, false);
    static final KeySpec READ_WRITE_KEY = new KeySpec(1, 1, 1, true, true);
    static final KeySpec WRITE_KEY = new KeySpec(1, 1, 1, false, true);
    static final KeySpec WRITE_KEYS = new KeySpec(1, -1, 1, false, true);
    static final KeySpec LOOK_KEYS = new KeySpec(1, -1, 1, false, false);

    private TestCatalog()
    {
    }

    public static CommandCatalog catalog()
    {
        return CommandCatalog.of(List.of(
            CommandSpec.of("bf.add", READ_WRITE_KEY, WRITE, BLOOM, FAST),
            CommandSpec.of("bf.madd", READ_WRITE_KEY, WRITE, BLOOM, SLOW),
            CommandSpec.of("bf.exists", READ_KEY, READ, BLOOM, FAST),
            CommandSpec.of("bf.mexists", READ_KEY, READ, BLOOM, SLOW),
            CommandSpec.of("bf.reserve", WRITE_KEY, WRITE, BLOOM, SLOW),
            CommandSpec.of("bf.info", READ_KEY, READ, BLOOM, FAST),
            CommandSpec.of("cf.add", READ_WRITE_KEY, WRITE, CUCKOO, FAST),
            CommandSpec.of("cf.exists", READ_KEY, READ, CUCKOO, FAST),
            CommandSpec.of("cf.del", READ_WRITE_KEY, WRITE, CUCKOO, FAST),
            CommandSpec.of("del", WRITE_KEYS, KEYSPACE, WRITE, SLOW),
            CommandSpec.of("exists", LOOK_KEYS, KEYSPACE, READ, FAST),
            CommandSpec.of("keys", KeySpec.NONE, KEYSPACE, READ, SLOW, DANGEROUS),
            CommandSpec.of("flushall", KeySpec.NONE, KEYSPACE, WRITE, SLOW, DANGEROUS),
            CommandSpec.of("ping", KeySpec.NONE, FAST, CONNECTION),
            CommandSpec.of("echo", KeySpec.NONE, FAST, CONNECTION),
            CommandSpec.of("select", KeySpec.NONE, FAST, CONNECTION),
            new CommandSpec("auth", EnumSet.of(FAST, CONNECTION), true, KeySpec.NONE),
            CommandSpec.of("multi", KeySpec.NONE, FAST, TRANSACTION),
            CommandSpec.of("exec", KeySpec.NONE, SLOW, TRANSACTION),
            CommandSpec.of("client", KeySpec.NONE),
            CommandSpec.of("client|id", KeySpec.NONE, SLOW, CONNECTION),
            CommandSpec.of("client|setname", KeySpec.NONE, SLOW, CONNECTION),
            CommandSpec.of("client|list", KeySpec.NONE, ADMIN, SLOW, DANGEROUS, CONNECTION),
            CommandSpec.of("config", KeySpec.NONE),
            CommandSpec.of("config|get", KeySpec.NONE, ADMIN, SLOW, DANGEROUS),
            CommandSpec.of("config|resetstat", KeySpec.NONE, ADMIN, SLOW, DANGEROUS),
            CommandSpec.of("memory", KeySpec.NONE),
            CommandSpec.of("memory|usage", new KeySpec(2, 2, 1, false, false), READ, SLOW),
            CommandSpec.of("acl", KeySpec.NONE),
            CommandSpec.of("acl|whoami", KeySpec.NONE, SLOW),
            CommandSpec.of("acl|list", KeySpec.NONE, ADMIN, SLOW, DANGEROUS),
            CommandSpec.of("acl|setuser", KeySpec.NONE, ADMIN, SLOW, DANGEROUS)));
    }
}
