package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.LdaKernel;

/** The mode names users write, and how {@code auto} chooses by the table's size against an executor's heap. */
class LdaModeTest {
    @Test
    void namesParseAndPrint() {
        assertEquals(LdaMode.AUTO, LdaMode.parse(" Auto "));
        assertEquals(LdaMode.BROADCAST, LdaMode.parse("broadcast"));
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.parse("model_parallel"));
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.parse(LdaMode.MODEL_PARALLEL.label()));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LdaMode.parse("ring"));
        assertTrue(e.getMessage().contains("'ring'"), e.getMessage());
    }

    /**
     * With 2 tasks per executor the broadcast mode takes (8 + 6·2) = 20 bytes a cell; a 1,580 MB heap leaves 1,280 MB
     * after Spark's 300 MB, half of which is 640 MB = 2^25 cells of 20 bytes. One cell more goes model-parallel.
     */
    @Test
    void autoIsBroadcastWhileItsCopiesFitHalfTheUsableHeap() {
        long heap = (1280L + 300) << 20;
        long cells = 1L << 25;
        assertEquals(640L << 20, sparse(cells, 2));
        assertEquals(LdaMode.BROADCAST, LdaMode.AUTO.chooseForBytes(sparse(cells, 2), heap));
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.AUTO.chooseForBytes(sparse(cells + 1, 2), heap));
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.AUTO.chooseForBytes(sparse(cells, 4), heap),
                "more tasks, more copies");
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.AUTO.chooseForBytes(sparse(1, 1), 200L << 20),
                "a heap below Spark's reserve");
        assertEquals(LdaMode.BROADCAST, LdaMode.BROADCAST.chooseForBytes(sparse(cells * 100, 2), heap),
                "an explicit mode stays");
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.MODEL_PARALLEL.chooseForBytes(sparse(1, 1), heap));
    }

    /** The broadcast mode's bytes on an executor with the sparse kernel's samplers (6 bytes a cell). */
    private static long sparse(long cells, int cores) {
        return LdaMode.broadcastBytes(cells, 6 * cells, cores);
    }

    /**
     * With the cycle MH kernel a task's sampler counts at its own size: here, at K = 1,000, the words of 5,000 and
     * 300 tokens get dense rows (1,000 ints each), the word of 2 a hash row of 4 slots and the word of none no row;
     * 8 ints of row index, 16 bytes a word of per-word arrays, and 12 bytes for each of the 1,302 cells the alias
     * tables may take. The sparse kernel's 6 bytes a cell (4 of rows, 2 of move log) are the formula above.
     */
    @Test
    void theCycleMhKernelsSamplerCountsAtItsOwnSize() {
        int[] totals = {5000, 300, 2, 0};
        long cells = 1000 + 300 + 2;
        long mh = 4 * (1000 + 1000 + 4 + 8) + 16 * 4 + 12 * cells;
        assertEquals(mh, LdaKernel.CYCLE_MH.samplerBytes(1000, totals));
        assertEquals(6 * cells, LdaKernel.SPARSE_GIBBS.samplerBytes(1000, totals));
        assertEquals(20 * cells, LdaMode.broadcastBytes(cells, LdaKernel.SPARSE_GIBBS.samplerBytes(1000, totals), 2));
        long bytes = LdaMode.broadcastBytes(cells, mh, 2);
        assertEquals(8 * cells + 2 * mh, bytes);
        long heap = LdaMode.SPARK_RESERVED_BYTES + 2 * bytes;
        assertEquals(LdaMode.BROADCAST, LdaMode.AUTO.chooseForBytes(bytes, heap));
        assertEquals(LdaMode.MODEL_PARALLEL, LdaMode.AUTO.chooseForBytes(bytes + 1, heap));
    }
}
