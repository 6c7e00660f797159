package org.sparkmc.spark.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.ml.GibbsLDATest.assertMessage;

import org.apache.spark.ml.param.ParamMap;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.LdaKernel;

/**
 * GibbsLDA's params refuse the same values with the same message whichever way they are set: by the setters, by
 * Spark's generic {@code set(param, value)}, or in a {@link ParamMap} (as {@code fit(dataset, paramMap)} and
 * {@code copy} take them). No Spark context is needed.
 */
class GibbsLDAParamsTest {

    @Test
    void genericSetAndParamMapRefuseWhatTheSettersRefuse() {
        GibbsLDA g = new GibbsLDA();
        String k = "k (the number of topics) must be in [1, 65535], got 70000";
        assertMessage(k, () -> g.setK(70000));
        assertMessage(k, () -> g.set(g.k(), 70000));
        assertMessage(k, () -> ParamMap.empty().put(g.k(), 70000));
        assertMessage(k, () -> g.copy(new ParamMap().put(g.k().w(70000))));
        assertTrue(g.k().doc().contains("65535"), g.k().doc());
        for (String column : new String[] {"featuresCol", "topicDistributionCol"}) {
            String expected = column + " must name a column (a non-empty string), got ";
            assertMessage(expected, () -> g.set(g.getParam(column), ""));
            assertMessage(expected, () -> g.set(g.getParam(column), null));
        }
        assertMessage("featuresCol must name a column", () -> g.setFeaturesCol(""));
        assertMessage("maxIter (Gibbs sweeps) must be >= 0, got -1", () -> g.set(g.maxIter(), -1));
        assertMessage("numBlocks (AD-LDA document blocks) must be >= 1, got 0", () -> g.set(g.numBlocks(), 0));
        assertMessage("checkpointInterval must be >= 1, or -1 to disable, got 0",
                () -> g.set(g.checkpointInterval(), 0));
        assertMessage("topicConcentration (beta) must be positive and finite, got -1.0",
                () -> g.set(g.topicConcentration(), -1.0));
        assertMessage("symmetric prior only", () -> g.set(g.docConcentration(), new double[] {1, 2}));
        assertMessage("foldInBurnIn must be >= 0, got -1", () -> g.set(g.foldInBurnIn(), -1));
        assertMessage("foldInSamples must be >= 1, got 0", () -> g.set(g.foldInSamples(), 0));
        assertMessage("kernel must be sparse_gibbs or cycle_mh (in any case), got em", () -> g.set(g.kernel(), "em"));
        assertMessage("kernel must be sparse_gibbs or cycle_mh (in any case), got em", () -> g.setKernel("em"));
        // None of the refusals changed a value.
        assertEquals(10, g.getK());
        assertEquals("features", g.getFeaturesCol());
    }

    /** Kernel names are taken in any case, by either path, and read back in the canonical lower case. */
    @Test
    void kernelNamesInAnyCaseAreReadInLowerCase() {
        GibbsLDA g = new GibbsLDA();
        g.set(g.kernel(), "CYCLE_MH");
        assertEquals("cycle_mh", g.getKernel());
        assertEquals(LdaKernel.CYCLE_MH, g.ldaKernel());
        assertEquals("sparse_gibbs", g.setKernel("Sparse_Gibbs").getKernel());
        assertEquals(LdaKernel.SPARSE_GIBBS, g.ldaKernel());
        GibbsLDA copied = g.copy(new ParamMap().put(g.kernel().w("Cycle_MH")));
        assertEquals("cycle_mh", copied.getKernel());
    }
}
