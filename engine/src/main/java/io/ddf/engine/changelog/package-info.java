/**
 * The engine's side of the change log (issue 31, FORMAT-LOG.md): each filter's binding to a log (its number, its
 * records, its checkpoints, the open path's decision: sealed, same boot, replay) and the replay of its records.
 */
package io.ddf.engine.changelog;
