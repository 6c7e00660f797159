package org.sparkmc.core.smc;

/**
 * Resampling of one block of particles from its cumulative-weight offset, the global total and the driver's
 * {@link ResamplingDraw}: what a partition calls for each block it owns. Particle i of block b has cumulative
 * weight c_i = O_b + s_b·Σ_{j ≤ i} exp(lw_j − m_b) (the partial sum in index order, exactly as
 * {@link BlockSummary} sums it, so the last particle's c equals O_{b+1} bit for bit) and gets
 * F(c_i/S) − F(c_{i−1}/S) offspring, F being the draw's {@link PointCounter}. The counts are therefore those of
 * the single-machine resampler ({@link Resampling#offspring}) whatever the partitioning, and the global index of
 * the block's first offspring, F(O_b/S), is known locally — so offspring can be sent straight to the partition
 * that owns their new index.
 */
public final class OffsetResampling {
    private OffsetResampling() {
    }

    /**
     * Offspring counts for block {@code block}, whose particles are {@code [from, to)} of the caller's arrays
     * (systematic, stratified or multinomial draws; for residual see {@link #residualOffspring}).
     *
     * @param counts receives the count of particle {@code from + k} at {@code counts[countsFrom + k]}
     * @return the global index (0-based, among all n offspring) of this block's first offspring
     */
    public static long offspring(double[] logWeights, int from, int to, int block, GlobalWeights g,
            ResamplingDraw draw, int[] counts, int countsFrom) {
        double offset = g.offset(block);
        double scale = g.scale(block);
        double max = g.blockMax(block);
        double total = g.total();
        PointCounter counter = draw.counter(offset / total);
        long before = counter.below(offset / total);
        long first = before;
        double partial = 0;
        boolean empty = max == Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            if (!empty) {
                partial += Math.exp(logWeights[i] - max);
            }
            double c = offset + partial * scale;
            long after = counter.below(c / total);
            counts[countsFrom + i - from] = Math.toIntExact(after - before);
            before = after;
        }
        return first;
    }

    /** Residual resampling, first pass over one block: Σ⌊e_i⌋ and Σ(e_i − ⌊e_i⌋) of e_i = n·W_i. */
    public static ResidualBlock residualBlock(double[] logWeights, int from, int to, int block, GlobalWeights g,
            long points) {
        long floors = 0;
        double residuals = 0;
        for (int i = from; i < to; i++) {
            double e = expected(logWeights[i], block, g, points);
            double f = Math.floor(e);
            floors += (long) f;
            residuals += e - f;
        }
        return new ResidualBlock(block, floors, residuals);
    }

    /**
     * Residual resampling, second pass: ⌊e_i⌋ plus particle i's share of the R residual points drawn by
     * {@code residualDraw} (a {@link ResamplingScheme#RESIDUAL} draw with {@link ResidualWeights#residualPoints()}
     * points).
     *
     * @return the global index of this block's first offspring
     */
    public static long residualOffspring(double[] logWeights, int from, int to, int block, GlobalWeights g,
            ResidualWeights r, ResamplingDraw residualDraw, int[] counts, int countsFrom) {
        long points = r.residualPoints();
        long n = r.points();
        if (residualDraw.points() != points) {
            throw new IllegalArgumentException("the residual draw has " + residualDraw.points()
                    + " points, the residual weights need " + points);
        }
        double offset = r.offset(block);
        double total = r.total();
        if (points > 0 && !(total > 0)) {
            throw new IllegalStateException("residual resampling: " + points + " residual points but no residual weight");
        }
        PointCounter counter = points > 0 ? residualDraw.counter(offset / total) : null;
        long before = points > 0 ? counter.below(offset / total) : 0;
        long first = r.floorsBefore(block) + before;
        double partial = 0;
        for (int i = from; i < to; i++) {
            double e = expected(logWeights[i], block, g, n);
            double f = Math.floor(e);
            int k = (int) f;
            if (points > 0) {
                partial += e - f;
                long after = counter.below((offset + partial) / total);
                k += Math.toIntExact(after - before);
                before = after;
            }
            counts[countsFrom + i - from] = k;
        }
        return first;
    }

    /** e_i = n·W_i, computed the same way in both residual passes. */
    private static double expected(double logWeight, int block, GlobalWeights g, long n) {
        double max = g.blockMax(block);
        if (max == Double.NEGATIVE_INFINITY) {
            return 0;
        }
        double w = Math.exp(logWeight - max) * g.scale(block);
        return (n * w) / g.total();
    }
}
