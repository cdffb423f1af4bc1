/**
 * {@code ddf migrate}: RedisBloom's filters moved into a ddf daemon by their dumps, over plain RESP2 connections.
 */
package io.ddf.ingest.migrate;
