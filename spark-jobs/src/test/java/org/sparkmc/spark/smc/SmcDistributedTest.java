package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.catalog.SmcModelCatalog;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.MissingObservations;
import org.sparkmc.core.smc.ParticleSystem;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.SmcModel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.spark.SparkTestBase;

/**
 * The distributed filter equals core's single-machine {@link ParticleSystem} bit for bit — every step's mean,
 * variance, ESS, resampling decision and log-likelihood increment, the particles themselves, and the final log p̂ —
 * for the same seed, N and block size, on 1, 3 and 8 partitions. Deterministic: no false failures.
 */
class SmcDistributedTest extends SparkTestBase {
    private static final double[][] NILE = SmcTestData.nile().values();

    /** Nile, bootstrap, systematic; N = 1000 in 8 blocks of 128 (the last one short), τ = 0.7. */
    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 3, 8})
    void nileEqualsTheSingleMachineFilter(int partitions) {
        SmcModel model = SmcModelCatalog.create("local-level", "bootstrap", ModelParameters.empty());
        SmcOptions options = SmcOptions.defaults().withBlockSize(128).withEssThreshold(0.7);
        int resampled = compare(new SmcConfig(model, 1000, options, partitions, 4242, 10, null), NILE, 25);
        assertTrue(resampled > 10, "too few resampling steps to test: " + resampled);
    }

    /**
     * Every resampling scheme (residual takes an extra pass), on the 2-d local linear trend with the guided filter,
     * a skipped missing observation, 3 partitions and 40 steps.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ResamplingScheme.class)
    void everySchemeEqualsTheSingleMachineFilter(ResamplingScheme scheme) {
        SmcModel model = SmcModelCatalog.create("linear-gaussian", "guided", SmcTestData.trend());
        double[][] y = java.util.Arrays.copyOf(NILE, 40);
        y[12] = new double[] {Double.NaN};
        SmcOptions options = SmcOptions.defaults().withScheme(scheme).withBlockSize(100).withEssThreshold(0.9)
                .withMissing(MissingObservations.SKIP);
        int resampled = compare(new SmcConfig(model, 700, options, 3, 77, 7, null), y, 13);
        assertTrue(resampled > 3, "too few resampling steps to test: " + resampled);
    }

    /**
     * Over one partition, chunks of steps run in one task ({@link SmcJob#steps}) equal the single-machine filter bit
     * for bit too: every scheme, 7 blocks in the partition, a skipped missing observation, chunks of 1, 6 and 33
     * steps (resampling inside a chunk), particles compared after each chunk; and the lineage cut every 5 steps
     * keeps it bounded across chunks.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ResamplingScheme.class)
    void chunksOfStepsInOneTaskEqualTheSingleMachineFilter(ResamplingScheme scheme) {
        SmcJob job = compareChunks(scheme, 1, 0.9, 40, new int[] {1, 6, 33}, 8, SmcJob::steps);
        assertTrue(job.lineageDepth() < 8, "lineage depth " + job.lineageDepth());
    }

    /**
     * Relayed steps over two partitions (chunks of steps in one barrier stage each, the blocks' summaries and the
     * offspring that change partition exchanged through the driver's relay) equal the single-machine filter bit for
     * bit, for every resampling scheme, with a missing observation; particles compared after each chunk.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ResamplingScheme.class)
    void relayedStepsOverTwoPartitionsEqualTheSingleMachineFilter(ResamplingScheme scheme) {
        compareChunks(scheme, 2, 0.6, 30, new int[] {1, 6, 23}, 2, SmcJob::relayedSteps);
    }

    /**
     * A relayed run whose last chunk is said to end the run (the command without a checkpoint) gives the same steps
     * and log p̂ bit for bit, and keeps no particles after it: {@link SmcJob#states()} and further steps are refused.
     * Its first stage moves the blocks Spark computed for it in place (not cached, so not copied), its second the
     * cached first generation's copies: both must equal the single-machine filter.
     */
    @Test
    void aRelayedStageThatEndsTheRunKeepsNoParticles() {
        SmcModel model = SmcModelCatalog.create("local-level", "bootstrap", ModelParameters.empty());
        SmcOptions options = SmcOptions.defaults().withBlockSize(128).withEssThreshold(0.7);
        SmcConfig config = new SmcConfig(model, 1000, options, 2, 4242, 10, null);
        ParticleSystem single = new ParticleSystem(model.kernel(), 1000, options, new RandomStreams(4242));
        List<double[]> y = java.util.Arrays.asList(NILE).subList(0, 60);
        SmcJob job = new SmcJob(jsc(), config);
        job.initialize();
        try {
            List<StepSummary> steps = new java.util.ArrayList<>(job.advance(y.subList(0, 20), s -> { }, false));
            steps.addAll(job.advance(y.subList(20, 60), s -> { }, true));
            assertEquals(60, steps.size());
            for (int n = 0; n < 60; n++) {
                assertSameStep(single.step(NILE[n]), steps.get(n), "step " + n);
            }
            assertEquals(single.logLikelihood(), job.logLikelihood(), 0.0);
            assertTrue(job.resamplings() > 10, "too few resampling steps to test: " + job.resamplings());
            IllegalStateException gone = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    job::states);
            assertTrue(gone.getMessage().contains("not kept"), gone.getMessage());
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> job.advance(y.subList(0, 1), s -> { }, false));
        } finally {
            job.release();
        }
    }

    /**
     * Runs a guided trend filter of 700 particles in blocks of 100 over the first {@code steps} Nile observations
     * (the 13th missing and skipped) in chunks of the given lengths through {@code chunk}, against the single-machine
     * filter: every step's numbers and, after each chunk, the particles bit for bit; more than 3 resampling steps.
     * After each chunk the particles' lineage is at most {@code maxDepth} RDDs deep (2: cut at the chunk's end).
     * Returns the released job.
     */
    private SmcJob compareChunks(ResamplingScheme scheme, int partitions, double essThreshold, int steps,
            int[] lengths, int maxDepth,
            java.util.function.BiFunction<SmcJob, List<double[]>, List<StepSummary>> chunk) {
        SmcModel model = SmcModelCatalog.create("linear-gaussian", "guided", SmcTestData.trend());
        double[][] y = java.util.Arrays.copyOf(NILE, steps);
        y[12] = new double[] {Double.NaN};
        SmcOptions options = SmcOptions.defaults().withScheme(scheme).withBlockSize(100)
                .withEssThreshold(essThreshold).withMissing(MissingObservations.SKIP);
        SmcConfig config = new SmcConfig(model, 700, options, partitions, 77, 5, null);
        ParticleSystem single = new ParticleSystem(model.kernel(), 700, options, new RandomStreams(77));
        SmcJob job = new SmcJob(jsc(), config);
        job.initialize();
        int resampled = 0;
        int n = 0;
        try {
            for (int length : lengths) {
                List<StepSummary> actual = chunk.apply(job, java.util.Arrays.asList(y).subList(n, n + length));
                assertEquals(length, actual.size());
                // Before any synchronous job on the particles (reading them back would write a marked checkpoint).
                assertTrue(job.lineageDepth() <= maxDepth, "lineage depth " + job.lineageDepth() + " after a chunk");
                for (StepSummary a : actual) {
                    assertSameStep(single.step(y[n]), a, scheme + ", step " + n);
                    resampled += a.resampled() ? 1 : 0;
                    n++;
                }
                assertArrayEquals(single.states(), job.states(), 0.0, scheme + " after step " + n + ": particles");
            }
            assertEquals(single.logLikelihood(), job.logLikelihood(), 0.0);
            assertEquals(resampled, job.resamplings());
            assertTrue(resampled > 3, "too few resampling steps to test: " + resampled);
        } finally {
            job.release();
        }
        return job;
    }

    /** Every number of a step, bit for bit. */
    private static void assertSameStep(StepSummary expected, StepSummary actual, String where) {
        assertEquals(expected.step(), actual.step(), where);
        assertArrayEquals(expected.mean(), actual.mean(), 0.0, where);
        assertArrayEquals(expected.variance(), actual.variance(), 0.0, where);
        assertEquals(expected.ess(), actual.ess(), 0.0, where);
        assertEquals(expected.resampled(), actual.resampled(), where);
        assertEquals(expected.logLikelihoodIncrement(), actual.logLikelihoodIncrement(), 0.0, where);
        assertEquals(expected.observed(), actual.observed(), where);
    }

    /** Runs both filters side by side; compares particles every {@code statesEvery} steps and at the end. */
    private int compare(SmcConfig config, double[][] y, int statesEvery) {
        ParticleSystem single = new ParticleSystem(config.model().kernel(), config.particles(), config.options(),
                new RandomStreams(config.seed()));
        SmcJob job = new SmcJob(jsc(), config);
        job.initialize();
        int resampled = 0;
        try {
            for (int n = 0; n < y.length; n++) {
                StepSummary actual = job.step(y[n]);
                String where = config.partitions() + " partitions, step " + n;
                assertSameStep(single.step(y[n]), actual, where);
                resampled += actual.resampled() ? 1 : 0;
                if (n % statesEvery == statesEvery - 1 || n == y.length - 1) {
                    assertArrayEquals(single.states(), job.states(), 0.0, where + ": particles");
                }
            }
            assertEquals(single.logLikelihood(), job.logLikelihood(), 0.0);
            assertEquals(resampled, job.resamplings());
        } finally {
            job.release();
        }
        return resampled;
    }

    /**
     * The lineage of the particle RDD stays bounded over a long series when it is cut every 5 steps, and grows with
     * the series when it is not (so the check can fail); likewise with reliable checkpoints in a directory.
     */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path checkpoints;

    @Test
    void lineageIsCutPeriodically() {
        SmcModel model = SmcModelCatalog.create("local-level", "bootstrap", ModelParameters.empty());
        SmcOptions options = SmcOptions.defaults().withBlockSize(100).withEssThreshold(0.5);
        long t0 = System.nanoTime();
        int cut = depthAfter(new SmcConfig(model, 200, options, 2, 1, 5, null), 40);
        long t1 = System.nanoTime();
        int uncut = depthAfter(new SmcConfig(model, 200, options, 2, 1, 1000, null), 40);
        System.err.println("lineage: cut " + cut + " in " + (t1 - t0) / 1e9 + " s, uncut " + uncut + " in "
                + (System.nanoTime() - t1) / 1e9 + " s");
        assertTrue(cut <= 16, "lineage depth " + cut + " with a cut every 5 steps");
        assertTrue(uncut > 40, "lineage depth " + uncut + " without cuts");
        int reliable = depthAfter(new SmcConfig(model, 200, options, 2, 1, 5, checkpoints.toString()), 40);
        assertTrue(reliable <= 16, "lineage depth " + reliable + " with reliable checkpoints every 5 steps");
    }

    private int depthAfter(SmcConfig config, int steps) {
        SmcJob job = new SmcJob(jsc(), config);
        job.initialize();
        for (int n = 0; n < steps; n++) {
            job.step(NILE[n % NILE.length]);
        }
        int depth = job.lineageDepth();
        job.release();
        return depth;
    }

    @Test
    void partitionerGivesEachPartitionAContiguousRunOfWholeBlocks() {
        for (int[] pb : new int[][] {{1, 1}, {3, 8}, {8, 8}, {3, 22}, {7, 100}}) {
            BlockPartitioner p = new BlockPartitioner(pb[0], pb[1]);
            int previous = 0;
            for (int b = 0; b < pb[1]; b++) {
                int part = p.getPartition(b);
                assertTrue(part == previous || part == previous + 1, "blocks out of order at " + b);
                assertTrue(b >= p.firstBlock(part) && (part + 1 == pb[0] || b < p.firstBlock(part + 1)));
                previous = part;
            }
            assertEquals(pb[0] - 1, previous);
        }
    }
}
