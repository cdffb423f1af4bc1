package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.commands.acl.AclCommands;
import io.ddf.ingest.commands.keyspace.KeyspaceCommands;
import io.ddf.ingest.commands.redisbloom.RedisBloomCommands;
import io.ddf.ingest.commands.server.CommandDocs;
import io.ddf.ingest.commands.server.ServerCommands;
import io.ddf.ingest.commands.server.TransactionCommands;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.info.ServerInfo;
import io.ddf.ingest.security.ServerSecurity;
import io.ddf.ingest.store.FilterStore;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Registers every command family in the table, in the order COMMAND lists them: RedisBloom's BF.* and CF.*, MODULE,
 * the connection and server commands, the keyspace's, the transaction's, ACL, then COMMAND itself. The one place
 * that knows every family: nothing below the start-up wiring imports one family from another.
 */
final class CommandFamilies
{
    private CommandFamilies()
    {
    }

    /**
     * @param table    gets every command.
     * @param config   the daemon's settings.
     * @param store    the filters.
     * @param drain    returns once every element published so far for a filter has been judged.
     * @param security the users, once made.
     * @param info     INFO's text and CONFIG GET's values.
     * @param log      the daemon's log.
     */
    static void register(final CommandTable table, final ServerConfig config, final FilterStore store,
        final Consumer<DuplicateFilter> drain, final Supplier<ServerSecurity> security, final ServerInfo info,
        final Consumer<String> log)
    {
        new RedisBloomCommands(store, config, drain, config::defaultFilter, log).register(table);
        final ServerCommands server = new ServerCommands(store, table, security, () -> info, drain);
        server.registerModule(table);
        server.register(table);
        new KeyspaceCommands(store, drain).register(table);
        new TransactionCommands().register(table);
        new AclCommands(() -> security.get().acl(), config.aclFile).register(table);
        new CommandDocs(table).register(table);
    }
}
