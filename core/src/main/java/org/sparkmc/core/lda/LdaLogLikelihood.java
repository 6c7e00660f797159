package org.sparkmc.core.lda;

import org.apache.commons.numbers.gamma.LogGamma;

/**
 * The joint log-likelihood log p(w, z) of collapsed LDA (Griffiths &amp; Steyvers 2004, eqs. 2–3): both
 * Dirichlet–multinomial terms, with θ and φ integrated out,
 * <pre>
 *   log p(w | z) = K [lnΓ(Wβ) − W lnΓ(β)] + Σ_k [Σ_w lnΓ(n_{k,w} + β) − lnΓ(n_k + Wβ)]
 *   log p(z)     = D [lnΓ(Kα) − K lnΓ(α)] + Σ_d [Σ_k lnΓ(n_{d,k} + α) − lnΓ(n_d + Kα)]
 * </pre>
 * Zero counts contribute nothing once the lnΓ(β), lnΓ(α) constants are folded in, so both sums run over non-zero
 * cells only. The document term is a sum over documents: the Spark job adds the blocks' terms. The lnΓ of counts
 * come from {@link LogGammaTable} (the same doubles, without a lnΓ evaluation per cell).
 */
public final class LdaLogLikelihood {
    private LdaLogLikelihood() {
    }

    /** log p(w | z) from the topic–word counts. */
    public static double topicWordTerm(TopicWordCounts counts, double beta) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        double sum = k * LogGamma.value(w * beta);
        for (int t : counts.topicTotals()) {
            sum -= LogGamma.value(t + w * beta);
        }
        return addCellTerms(sum, counts.entries(), counts.rowStarts(), counts.wideRows(), counts.topicBits(), beta);
    }

    /**
     * The non-zero cells' part of log p(w | z), Σ_cells lnΓ(n_{k,w} + β) − lnΓ(β), over rows in
     * {@link TopicWordCounts}' layout: packed cells {@code count << topicBits | topic}, except the rows listed in
     * {@code wideRows} (increasing), which hold K plain counts. Also a word slice's share in model-parallel LDA.
     */
    static double cellTerm(int[] cells, int[] rowStarts, int[] wideRows, int topicBits, double beta) {
        return addCellTerms(0, cells, rowStarts, wideRows, topicBits, beta);
    }

    /** {@code sum} plus the cells' terms, added one by one in storage order. */
    private static double addCellTerms(double sum, int[] cells, int[] rowStarts, int[] wideRows, int topicBits,
            double beta) {
        double lgBeta = LogGamma.value(beta);
        LogGammaTable table = LogGammaTable.of(beta);
        int from = 0;
        for (int row : wideRows) {
            sum = addTerms(sum, cells, from, rowStarts[row], topicBits, table, lgBeta);
            sum = addTerms(sum, cells, rowStarts[row], rowStarts[row + 1], 0, table, lgBeta);
            from = rowStarts[row + 1];
        }
        return addTerms(sum, cells, from, cells.length, topicBits, table, lgBeta);
    }

    /** Adds the terms of cells[from, to), each count being {@code cell >>> shift}; zero counts (wide rows) add none. */
    private static double addTerms(double sum, int[] cells, int from, int to, int shift, LogGammaTable table,
            double lgBeta) {
        for (int e = from; e < to; e++) {
            int c = cells[e] >>> shift;
            if (c != 0) {
                sum += table.value(c) - lgBeta;
            }
        }
        return sum;
    }

    /** The rest of log p(w | z), from the topic totals: K lnΓ(Wβ) − Σ_k lnΓ(n_k + Wβ). */
    public static double totalsTerm(int[] topicTotals, int vocabularySize, double beta) {
        double sum = topicTotals.length * LogGamma.value(vocabularySize * beta);
        for (int t : topicTotals) {
            sum -= LogGamma.value(t + vocabularySize * beta);
        }
        return sum;
    }

    /** log p(z) for the documents of {@code docs} with topics {@code topics} (a block's share of the total). */
    public static double documentTerm(Corpus docs, char[] topics, LdaPriors priors) {
        if (topics.length != docs.numTokens()) {
            throw new IllegalArgumentException(topics.length + " topics for " + docs.numTokens() + " tokens");
        }
        DocumentTerms terms = DocumentTerms.of(priors);
        int[] counts = new int[priors.numTopics()];
        int[] touched = new int[priors.numTopics()];
        double sum = 0;
        for (int d = 0; d < docs.numDocuments(); d++) {
            int n = 0;
            for (int i = docs.docStart(d); i < docs.docEnd(d); i++) {
                if (counts[topics[i]]++ == 0) {
                    touched[n++] = topics[i];
                }
            }
            sum = terms.add(sum, docs.docLength(d), counts, touched, n);
            for (int j = 0; j < n; j++) {
                counts[touched[j]] = 0;
            }
        }
        return sum;
    }

    /**
     * One document's term of log p(z), lnΓ(Kα) − lnΓ(n_d + Kα) + Σ_k [lnΓ(n_{d,k} + α) − lnΓ(α)], from lnΓ tables:
     * {@link #documentTerm} adds it document by document, and {@link SparseLdaSampler} as each document ends.
     */
    record DocumentTerms(LogGammaTable cell, LogGammaTable length, double lgAlpha, double lgKAlpha) {
        static DocumentTerms of(LdaPriors priors) {
            LogGammaTable cell = LogGammaTable.of(priors.alpha());
            LogGammaTable length = LogGammaTable.of(priors.numTopics() * priors.alpha());
            return new DocumentTerms(cell, length, cell.value(0), length.value(0));
        }

        /**
         * {@code sum} plus the term of a document of {@code length} tokens whose non-zero topic counts are
         * {@code counts[topics[0..n)]}, added in that order.
         */
        double add(double sum, int length, int[] counts, int[] topics, int n) {
            sum += lgKAlpha - this.length.value(length);
            for (int j = 0; j < n; j++) {
                sum += cell.value(counts[topics[j]]) - lgAlpha;
            }
            return sum;
        }
    }

    /** log p(w, z) for a whole corpus, its topics and their counts. */
    public static double joint(Corpus corpus, char[] topics, TopicWordCounts counts, LdaPriors priors) {
        return topicWordTerm(counts, priors.beta()) + documentTerm(corpus, topics, priors);
    }
}
