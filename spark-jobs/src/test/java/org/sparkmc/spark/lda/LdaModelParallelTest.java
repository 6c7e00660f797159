package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkTestBase;

/** The model-parallel sampler on Spark against its single-JVM counterpart, and across partition counts. */
class LdaModelParallelTest extends SparkTestBase {
    private static final LdaPriors PRIORS = new LdaPriors(8, 0.2, 0.01);

    /** KOS documents whose id is a multiple of 7 (about 500). */
    private Corpus kos() {
        return LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect()
                .selectByDocId(id -> id % 7 == 0);
    }

    private ModelParallelSpark start(Corpus corpus, int blocks, int partitions, TotalsSync sync, LdaKernel kernel) {
        LdaDocuments docs = LdaDocuments.parallelize(jsc(), corpus, 3);
        ModelParallelSpark run = ModelParallelSpark.start(jsc(), docs.blocks(blocks, partitions), corpus.numTokens(),
                corpus.vocabularySize(), new ModelParallelSpark.Options(PRIORS, blocks, partitions, 99, kernel, 2,
                        sync));
        docs.release();
        return run;
    }

    private ModelParallelSpark start(Corpus corpus, int blocks, int partitions, TotalsSync sync) {
        return start(corpus, blocks, partitions, sync, LdaKernel.SPARSE_GIBBS);
    }

    /**
     * The Spark sub-steps are the single-JVM slice schedule ({@link ModelParallelDriver}) distributed: after every
     * sweep the same log-likelihood (to the last bit), the same counts and every block's topics, for both
     * synchronisations of the topic totals and both kernels, 4 blocks and slices on 2 partitions.
     */
    @ParameterizedTest
    @CsvSource({"SUB_STEP, SPARSE_GIBBS", "SWEEP, SPARSE_GIBBS", "SUB_STEP, CYCLE_MH", "SWEEP, CYCLE_MH"})
    void sweepsEqualTheSingleMachineSliceSchedule(TotalsSync sync, LdaKernel kernel) {
        Corpus kos = kos();
        ModelParallelSpark spark = start(kos, 4, 2, sync, kernel);
        ModelParallelDriver driver = ModelParallelDriver.start(kos, 4, PRIORS, kernel, new RandomStreams(99), sync);
        assertEquals(driver.logLikelihood(), spark.logLikelihood(), "the random start");
        for (int s = 1; s <= 3; s++) {
            List<AdLdaSpark.Step> steps = new ArrayList<>();
            spark.advance(1, 1, sweep -> true, steps::add);
            driver.sweep();
            assertEquals(s, steps.get(0).sweeps());
            assertEquals(driver.logLikelihood(), steps.get(0).logLikelihood(), "sweep " + s);
            assertEquals(driver.counts(), spark.counts(), "sweep " + s);
            assertTrue(steps.get(0).syncBytes() > 0, "the slices moved");
        }
        List<LdaBlock> blocks = spark.blocks().collect();
        assertEquals(4, blocks.size());
        for (LdaBlock b : blocks) {
            assertArrayEquals(driver.topics(b.id()), b.topics(), "block " + b.id());
            assertArrayEquals(driver.block(b.id()).words(), b.docs().words(), "block " + b.id() + " arranged");
        }
        spark.close();
    }

    /** 4 blocks on 1, 2 and 4 partitions are the same computation: identical log-likelihoods, counts and topics. */
    @Test
    void partitionsChangeNoNumber() {
        Corpus kos = kos();
        Map<Integer, List<Double>> logLikelihoods = new HashMap<>();
        Map<Integer, TopicWordCounts> counts = new HashMap<>();
        for (int partitions : new int[] {1, 2, 4}) {
            ModelParallelSpark run = start(kos, 4, partitions, TotalsSync.SWEEP);
            List<Double> ll = new ArrayList<>();
            run.advance(2, 1, sweep -> false, s -> ll.add(s.logLikelihood()));
            logLikelihoods.put(partitions, ll);
            counts.put(partitions, run.counts());
            run.close();
        }
        assertEquals(logLikelihoods.get(1), logLikelihoods.get(2));
        assertEquals(logLikelihoods.get(1), logLikelihoods.get(4));
        assertEquals(counts.get(1), counts.get(2));
        assertEquals(counts.get(1), counts.get(4));
        ModelParallelSpark otherBlocks = start(kos, 2, 2, TotalsSync.SWEEP);
        otherBlocks.advance(2, 1, sweep -> false, s -> { });
        assertNotEquals(counts.get(1), otherBlocks.counts(), "another P is another (equally valid) chain");
        otherBlocks.close();
    }

    @Test
    void partitionsMustDivideTheBlocks() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ModelParallelSpark.Options(PRIORS, 4, 3, 1, LdaKernel.SPARSE_GIBBS, 2, TotalsSync.SWEEP));
        assertTrue(e.getMessage().contains("4 blocks on 3"), e.getMessage());
    }
}
