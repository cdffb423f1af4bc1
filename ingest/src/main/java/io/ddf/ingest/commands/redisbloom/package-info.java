/**
 * RedisBloom's BF.* and CF.* commands: each key routed to the filters that grow or to ddf's fixed-size ones.
 */
package io.ddf.ingest.commands.redisbloom;
