package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * How many tasks write topic_word.parquet: few on a small model, and on a large one enough that neither a task's φ
 * rows (W doubles a topic) pass about 64 MB nor the sparse columns it carries Spark's recommended task size.
 */
class TopicWordTasksTest {
    @Test
    void aSmallModelIsOneTask() {
        assertEquals(1, LdaOutput.topicWordTasks(100, 6_906, 100_000));
    }

    @Test
    void aLargeVocabularyBoundsTheRowsOfATask() {
        // 2^23 / 102,660 = 81 topics a task: 13 tasks for 1,000 topics when the columns are small.
        assertEquals(13, LdaOutput.topicWordTasks(1_000, 102_660, 1_000));
    }

    @Test
    void manyNonZeroCellsBoundTheColumnsATaskCarries() {
        long cells = 30_000_000;
        int tasks = LdaOutput.topicWordTasks(1_000, 102_660, cells);
        assertTrue(8 * cells / tasks < 1_000 * 1024, tasks + " tasks carry " + 8 * cells / tasks + " bytes each");
        assertTrue(tasks <= 1_000);
    }

    @Test
    void neverMoreTasksThanTopics() {
        assertEquals(5, LdaOutput.topicWordTasks(5, 102_660, 500_000_000));
    }
}
