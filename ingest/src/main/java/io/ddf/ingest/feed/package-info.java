/**
 * The raw TCP feed: records judged in arrival order through the pipeline, and the forward target of unseen ones.
 */
package io.ddf.ingest.feed;
