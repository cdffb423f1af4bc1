/**
 * Everything {@code ddf serve} can be told, with its defaults and checks.
 */
package io.ddf.ingest.config;
