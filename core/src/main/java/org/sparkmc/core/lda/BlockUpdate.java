package org.sparkmc.core.lda;

import java.io.Serializable;

/**
 * What one AD-LDA document block returns after its sweep(s): its tokens' new topics (aligned with the block's
 * {@link Corpus#words()}) and the change it made to the topic–word counts, for the driver to merge.
 *
 * @param topics the block's new topic assignment z (one {@code char} per token)
 * @param delta the block's count changes against the counts it was given
 */
public record BlockUpdate(char[] topics, TopicWordDelta delta) implements Serializable {
}
