package org.sparkmc.core.bench.lda;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockSweeper;
import org.sparkmc.core.lda.BlockUpdate;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LdaSampler;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;

/**
 * Microseconds for the work AD-LDA adds to sampling, on the KOS training split in 8 blocks after {@code burnIn}
 * synchronised sweeps from the lda job's random start (K topics, α = 0.5, β = 0.01, sparse Gibbs):
 * <ul>
 *   <li>{@code delta}: one block's count changes after its sweep ({@link LdaSampler#delta}, against the counts the
 *   sampler was made from, so it sums the tokens' logged moves or compares only the rows the sweep changed, whichever
 *   is the cheaper);</li>
 *   <li>{@code sumOfFour}: one task's four block deltas summed ({@link TopicWordDelta#sum});</li>
 *   <li>{@code merge}: the eight deltas added to the global counts ({@link AdLda#merge});</li>
 *   <li>{@code sweep}: one block's sweep with its delta, for scale.</li>
 * </ul>
 * Nothing is merged between invocations, so each one repeats the same draws and the same work.
 *
 * <p>Usage, from the project root: {@code submit/bench core org.openjdk.jmh.Main AdLdaBlockWorkBenchmark -f 1 -wi 3
 * -i 5} (KOS from {@code sparkmc.shared.data}, default {@code ../shared/data}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AdLdaBlockWorkBenchmark {
    private static final int BLOCKS = 8;

    @Param({"100", "1000"})
    public int topics;

    @Param({"50"})
    public int burnIn;

    private LdaPriors priors;
    private RandomStreams streams;
    private Corpus[] blocks;
    private char[][] z;
    private TopicWordCounts global;
    private LdaSampler swept;
    private List<TopicWordDelta> deltas;

    @Setup
    public void setUp() throws IOException {
        priors = new LdaPriors(topics, 0.5, 0.01);
        streams = new RandomStreams(1);
        blocks = KosTraining.split().blocks(BLOCKS);
        KosTraining.Start start = KosTraining.randomStart(blocks, priors, streams);
        z = start.topics();
        global = start.global();
        BlockSweeper sweeper = new BlockSweeper(priors, LdaKernel.SPARSE_GIBBS);
        for (int s = 0; s <= burnIn; s++) {
            deltas = new ArrayList<>();
            for (int b = 0; b < BLOCKS; b++) {
                BlockUpdate u = sweeper.sweep(blocks[b], z[b], global, streams, s, 1, b);
                deltas.add(u.delta());
                if (s < burnIn) {
                    z[b] = u.topics();
                }
            }
            if (s < burnIn) {
                global = AdLda.merge(global, deltas);
            }
        }
        swept = LdaKernel.SPARSE_GIBBS.create(priors, global);
        swept.sweep(blocks[0], z[0].clone(), streams.stream(AdLda.SWEEP_STREAM, burnIn, 0));
    }

    @Benchmark
    public TopicWordDelta delta() {
        return swept.delta(global, blocks[0]);
    }

    @Benchmark
    public TopicWordDelta sumOfFour() {
        return TopicWordDelta.sum(deltas.subList(0, 4));
    }

    @Benchmark
    public TopicWordCounts merge() {
        return AdLda.merge(global, deltas);
    }

    @Benchmark
    public TopicWordDelta sweep() {
        LdaSampler sampler = LdaKernel.SPARSE_GIBBS.create(priors, global);
        sampler.sweep(blocks[0], z[0].clone(), streams.stream(AdLda.SWEEP_STREAM, burnIn, 0));
        return sampler.delta(global, blocks[0]);
    }
}
