package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.PosteriorMeanTopics;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/** {@code --topic-samples}: the reported topics are the posterior mean over the last states, also across a resume. */
class LdaTopicSamplesTest extends SparkTestBase {
    private static final String[] SAMPLES = {"--topic-samples", "3", "--topic-sample-every", "2"};

    @TempDir
    Path tmp;

    /**
     * The job's topic_word rows are exactly the one-machine AD-LDA's posterior mean over the states after sweeps 2, 4
     * and 6 (same seed and blocks), and its held-out perplexity is that mean's.
     */
    @Test
    void reportedTopicsAreThePosteriorMeanOfTheLastStates() throws IOException {
        Path out = tmp.resolve("mean");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(out, 6, "--topic-samples", "3", "--topic-sample-every", "2",
                "--left-to-right", "4", "--left-to-right-moves", "2")));
        Corpus kos = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect();
        Corpus training = kos.selectByDocId(id -> id % 10 != 0);
        Corpus heldOut = kos.selectByDocId(id -> id % 10 == 0);
        LdaPriors priors = new LdaPriors(10, 5.0, 0.01);
        AdLdaDriver driver = AdLdaDriver.start(training, 4, priors, new RandomStreams(11));
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(10, training.vocabularySize(), 0.01);
        for (int sweep = 1; sweep <= 6; sweep++) {
            driver.sweep();
            if (sweep % 2 == 0) {
                mean.add(driver.counts());
            }
        }
        double[] phi = mean.phi();
        int w = training.vocabularySize();
        List<Row> rows = spark().read().parquet(out.resolve("topic_word.parquet").toString()).orderBy("topic")
                .collectAsList();
        for (Row r : rows) {
            int k = r.getInt(0);
            double[] expected = new double[w];
            for (int v = 0; v < w; v++) {
                expected[v] = phi[v * 10 + k];
            }
            assertArrayEquals(expected, r.<Double>getList(2).stream().mapToDouble(Double::doubleValue).toArray(),
                    0.0, "topic " + k);
            assertEquals(driver.counts().topicTotal(k), r.getLong(1));
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        double expectedPerplexity = DocumentCompletion.of(3, 3).evaluate(phi, 10, 5.0, heldOut,
                new RandomStreams(11)).perplexity();
        JsonNode held = summary.get("held_out");
        assertEquals(expectedPerplexity, held.get("perplexity").asDouble(), 1e-9 * expectedPerplexity);
        assertNotEquals(held.get("perplexity").asDouble(), held.get("final_state_perplexity").asDouble());
        // The left-to-right estimate uses the reported (mean) topics too.
        double leftToRight = LeftToRight.of(4, ResamplingScheme.SYSTEMATIC, 2).evaluate(phi, 10, 5.0, heldOut,
                new RandomStreams(11)).perplexity();
        assertEquals(leftToRight, held.get("left_to_right").get("perplexity").asDouble(), 1e-9 * leftToRight);
        assertEquals(3, summary.get("topic_estimate").get("states").asInt());
        assertEquals(2, summary.get("topic_estimate").get("first_sweep").asInt());
        // topics.csv ranks words by the same φ̄.
        String first = LdaRuns.read(out.resolve("topics.csv")).lines().skip(1).findFirst().orElseThrow();
        int best = 0;
        for (int v = 1; v < w; v++) {
            if (phi[v * 10] > phi[best * 10]) {
                best = v;
            }
        }
        assertTrue(first.startsWith("0,1," + best + ","), first);
    }

    /**
     * A run checkpointed after sweep 4 with samples at 2 and 4, extended to 6 sweeps with three samples, equals the
     * straight run; a checkpoint without the samples a resume needs, or with a damaged one, is refused.
     */
    @Test
    void resumeKeepsTheSavedSamples() throws IOException {
        Path straight = tmp.resolve("straight");
        Path resumed = tmp.resolve("resumed");
        Path checkpoint = tmp.resolve("ckpt");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(straight, 6, SAMPLES)));
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(tmp.resolve("first"), 4, "--topic-samples", "2",
                "--topic-sample-every", "2", "--checkpoint", checkpoint.toString(), "--checkpoint-every", "2")));
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(resumed, 6, "--topic-samples", "3", "--topic-sample-every",
                "2", "--checkpoint", checkpoint.toString(), "--resume")));
        assertEquals(LdaRuns.read(straight.resolve("topics.csv")), LdaRuns.read(resumed.resolve("topics.csv")));
        assertEquals(LdaRuns.summaryWithoutTimes(straight), LdaRuns.summaryWithoutTimes(resumed));

        Path bare = tmp.resolve("bare");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(tmp.resolve("b1"), 4, "--checkpoint", bare.toString())));
        assertEquals(ExitCode.BAD_INPUT, Main.run(LdaRuns.kos(tmp.resolve("b2"), 6, "--topic-samples", "3",
                "--topic-sample-every", "2", "--checkpoint", bare.toString(), "--resume")));

        Path sample = checkpoint.resolve("samples/counts-00002.bin");
        byte[] bytes = Files.readAllBytes(sample);
        bytes[bytes.length - 1] ^= 1;
        Files.write(sample, bytes);
        Files.deleteIfExists(sample.resolveSibling(".counts-00002.bin.crc"));
        assertEquals(ExitCode.BAD_INPUT, Main.run(LdaRuns.kos(tmp.resolve("c"), 8, "--topic-samples", "4",
                "--topic-sample-every", "2", "--checkpoint", checkpoint.toString(), "--resume")));
        assertTrue(Files.notExists(tmp.resolve("b2")) && Files.notExists(tmp.resolve("c")));
    }
}
