/**
 * Latent Dirichlet allocation by collapsed Gibbs sampling (Griffiths &amp; Steyvers 2004), with the building blocks of
 * AD-LDA (Newman, Asuncion, Smyth &amp; Welling 2009). Pure Java; the Spark job moves these objects around.
 *
 * <p>Data: {@link org.sparkmc.core.lda.Corpus} (token word ids in int arrays, cut into document blocks),
 * read from UCI bag-of-words files by {@link org.sparkmc.core.lda.UciBagOfWords}.
 *
 * <p>One AD-LDA run, as the Spark job does it (all objects are primitive arrays or records of them):
 * <ol>
 *   <li>per block b: {@code AdLda.initializeBlock(block, b, priors, streams)} → topics (char[]) and a
 *       {@link org.sparkmc.core.lda.TopicWordDelta}; driver: {@code TopicWordCounts.empty(K, W).plus(deltas)};</li>
 *   <li>per sweep s, per block b, against the broadcast {@link org.sparkmc.core.lda.TopicWordCounts}:
 *       {@code AdLda.sweepBlock(block, topics, global, priors, streams, s, syncInterval, b[, kernel])} →
 *       {@link org.sparkmc.core.lda.BlockUpdate} (new topics, delta); driver: {@code AdLda.merge(global, deltas)};</li>
 *   <li>monitoring: {@code LdaLogLikelihood.topicWordTerm(global, β)} once plus the blocks'
 *       {@code LdaLogLikelihood.documentTerm(block, topics, priors)};</li>
 *   <li>evaluation and transform: {@link org.sparkmc.core.lda.DocumentCompletion},
 *       {@link org.sparkmc.core.lda.TopicInference}.</li>
 * </ol>
 * Random streams are keyed by (purpose, sweep, block) or (purpose, docId), never by partition or thread.
 * {@link org.sparkmc.core.lda.AdLdaDriver} runs the same steps on one machine;
 * {@link org.sparkmc.core.lda.BestOfChains} runs several such chains and keeps the one of highest training
 * log-likelihood, as the job's {@code --chains} does.
 */
package org.sparkmc.core.lda;
