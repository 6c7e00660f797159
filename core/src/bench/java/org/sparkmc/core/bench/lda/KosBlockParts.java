package org.sparkmc.core.bench.lda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LdaSampler;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;

/**
 * Where one AD-LDA sweep's work goes on one thread, the parts the {@code lda} job runs per block and on the driver:
 * building the block's sampler from the global counts, the sweep itself, the block's count changes, its document
 * term of log p(w, z), the merge and the topic–word term. KOS training split, K = 100, α = 0.5, β = 0.01, 8 blocks;
 * ms per sweep (all blocks), averaged over sweeps 51–150.
 *
 * <p>Usage: {@code java -cp … org.sparkmc.core.bench.lda.KosBlockParts} (KOS from {@code sparkmc.shared.data}).
 */
public final class KosBlockParts {
    public static void main(String[] args) throws Exception {
        Corpus kos = KosTraining.split();
        LdaPriors p = new LdaPriors(100, 0.5, 0.01);
        RandomStreams rs = new RandomStreams(1);
        Corpus[] blocks = kos.blocks(8);
        KosTraining.Start start = KosTraining.randomStart(blocks, p, rs);
        char[][] z = start.topics();
        TopicWordCounts global = start.global();
        List<TopicWordDelta> deltas = new ArrayList<>();
        String[] names = {"sampler built from the global counts", "sweep", "count changes (delta)",
            "document term of log p(w,z)", "merge (driver)", "topic-word term of log p(w,z) (driver)"};
        double[] ns = new double[names.length];
        int counted = 0;
        for (int s = 1; s <= 150; s++) {
            boolean count = s > 50;
            deltas.clear();
            for (int b = 0; b < blocks.length; b++) {
                long t0 = System.nanoTime();
                LdaSampler sampler = LdaKernel.SPARSE_GIBBS.create(p, global);
                long t1 = System.nanoTime();
                char[] next = z[b].clone();
                sampler.sweep(blocks[b], next, rs.stream(AdLda.SWEEP_STREAM, s, b));
                long t2 = System.nanoTime();
                deltas.add(sampler.delta(global, blocks[b]));
                long t3 = System.nanoTime();
                LdaLogLikelihood.documentTerm(blocks[b], next, p);
                long t4 = System.nanoTime();
                z[b] = next;
                if (count) {
                    ns[0] += t1 - t0;
                    ns[1] += t2 - t1;
                    ns[2] += t3 - t2;
                    ns[3] += t4 - t3;
                }
            }
            long t0 = System.nanoTime();
            global = global.plus(deltas);
            long t1 = System.nanoTime();
            LdaLogLikelihood.topicWordTerm(global, p.beta());
            long t2 = System.nanoTime();
            if (count) {
                ns[4] += t1 - t0;
                ns[5] += t2 - t1;
                counted++;
            }
        }
        double total = 0;
        for (double v : ns) {
            total += v;
        }
        for (int i = 0; i < names.length; i++) {
            System.out.printf(Locale.ROOT, "%-42s %7.2f ms per sweep  %5.1f%%%n", names[i], ns[i] / counted / 1e6,
                    100 * ns[i] / total);
        }
    }
}
