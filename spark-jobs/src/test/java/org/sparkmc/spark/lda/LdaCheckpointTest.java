package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.io.CheckpointStates;

/** What {@link LdaCheckpoint#deleteLeftovers} removes from a checkpoint directory, and what it leaves. */
class LdaCheckpointTest {
    @TempDir
    Path dir;

    @Test
    void aKilledRunsLineageCutsAndHalfWrittenTopicsGoAndNothingElse() throws Exception {
        CheckpointStates.claim(dir.toString(), new Configuration());
        Path cut = Files.createDirectories(dir.resolve("rdd/82b1e3df-456e-4aeb-9b35-b13f1a3e8582/rdd-17"));
        Files.writeString(cut.resolve("part-00000"), "topics");
        Path halfWritten = Files.createDirectories(dir.resolve(".topics-00040.parquet.tmp"));
        Path topics = Files.createDirectories(dir.resolve("topics-00035.parquet"));
        Path state = Files.writeString(dir.resolve("state-00035.json"), "{}");
        Path notSparks = Files.writeString(dir.resolve("rdd/notes.txt"), "kept");
        Path foreign = Files.createDirectories(dir.resolve("rdd/0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"));
        Files.writeString(foreign.resolve("model.bin"), "not Spark's checkpoint");

        assertEquals(2, new LdaCheckpoint(dir.toString(), new Configuration()).deleteLeftovers());
        assertFalse(Files.exists(cut.getParent()));
        assertFalse(Files.exists(halfWritten));
        for (Path kept : new Path[] {topics, state, notSparks, foreign.resolve("model.bin")}) {
            assertTrue(Files.exists(kept), kept.toString());
        }
        assertEquals(0, new LdaCheckpoint(dir.toString(), new Configuration()).deleteLeftovers());
    }
}
