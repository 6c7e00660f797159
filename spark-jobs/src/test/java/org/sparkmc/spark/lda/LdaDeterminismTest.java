package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.LocalSessions;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;
import scala.Tuple2;

/**
 * The same seed and number of blocks give identical topics, log-likelihoods and document–topic distributions with
 * local[1] on one partition and local[2] on three; another number of blocks gives another (equally valid) chain.
 * The same holds for a plain-text directory, whose document ids follow file name, then line order. Each run gets its
 * own local Spark context.
 */
class LdaDeterminismTest {
    @TempDir
    Path tmp;

    private record Outputs(String topics, List<String> loglik, List<String> docTopics) {
    }

    /**
     * The same topics, log-likelihoods and document topics on one core and two, on 1, 2 and 3 partitions, and
     * whether the sweeps run relayed (the default where every partition has a task slot: 1 and 2 partitions here) or
     * as one Spark job per sweep (3 partitions on two cores, or asked for).
     */
    @Test
    void topicsDoNotDependOnCoresOrPartitions() {
        Outputs oneCore = run("local[1]", "1", "4");
        Outputs twoCores = run("local[2]", "3", "4");
        assertEquals(oneCore, twoCores);
        assertEquals(oneCore, run("local[2]", "2", "4"));
        assertEquals(oneCore, run("local[2]", "2", "4", "--sync-via", "jobs"));
        Outputs otherBlocks = run("local[2]", "3", "3");
        assertNotEquals(oneCore.topics(), otherBlocks.topics());
    }

    /**
     * The model-parallel mode too: 4 blocks and word slices on one partition (local[1]) and on 2 and 4 (local[2]),
     * the slices rotating between partitions, give the same topics, log-likelihoods and document topics; and its
     * summary names the mode.
     */
    @Test
    void modelParallelTopicsDoNotDependOnCoresOrPartitions() {
        Outputs oneCore = run("local[1]", "1", "4", "--mode", "model-parallel");
        assertEquals(oneCore, run("local[2]", "2", "4", "--mode", "model-parallel"));
        assertEquals(oneCore, run("local[2]", "4", "4", "--mode", "model-parallel"));
        Path out = tmp.resolve("local1-1-4--modemodel-parallel");
        assertTrue(LdaRuns.read(out.resolve("summary.json")).contains("\"mode\" : \"model-parallel\""),
                LdaRuns.read(out.resolve("summary.json")));
        assertNotEquals(oneCore.topics(), run("local[2]", "2", "4").topics(), "the broadcast mode is another chain");
    }

    /**
     * A directory of a small file and a larger one read as several splits: every line's id is its place in file
     * name order, then line order (not Spark SQL's largest-file-first scan), whatever the splits, and the lda run is
     * the same on local[1] and local[2].
     */
    @Test
    void textIdsFollowFileNameThenLineOrder() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("text"));
        List<String> lines = textCorpus(dir);
        Files.writeString(dir.resolve("_SUCCESS"), "");
        Files.writeString(dir.resolve(".hidden.txt"), "not a document\n");
        for (int minPartitions : new int[] {1, 7}) {
            // The directory, or a glob matching its two .txt files: the same lines, numbered alike.
            String input = minPartitions == 1 ? dir.toString() : dir + "/*.txt";
            List<Tuple2<String, Long>> numbered = withSession("local[2]", spark -> {
                JavaPairRDD<String, Long> rdd = LdaCorpusReader.numberedLines(
                        JavaSparkContext.fromSparkContext(spark.sparkContext()), input, minPartitions);
                assertTrue(rdd.getNumPartitions() >= minPartitions, rdd.getNumPartitions() + " partitions");
                return new ArrayList<>(rdd.collect());
            });
            numbered.sort(Comparator.comparing(Tuple2::_2));
            assertEquals(lines, numbered.stream().map(Tuple2::_1).toList());
            assertEquals(lines.size() - 1, numbered.get(numbered.size() - 1)._2());
        }
        Outputs oneCore = runText("local[1]", dir);
        Outputs twoCores = runText("local[2]", dir);
        assertEquals(oneCore, twoCores);
        // doc_id (1-based line number over the files in name order) → tokens: line g has 3 + 7g mod 17 words.
        List<String> expected = new ArrayList<>();
        for (int g = 0; g < lines.size(); g++) {
            expected.add((g + 1) + "," + (3 + 7 * g % 17));
        }
        assertEquals(expected, oneCore.docTopics().stream().map(r -> {
            String[] f = r.substring(1).split(",", 3);
            return f[0] + "," + f[1];
        }).toList());
    }

    /** b.txt (300 lines) and a.txt (20 lines), line g of the two in name order having 3 + 7g mod 17 planted words. */
    private static List<String> textCorpus(Path dir) throws IOException {
        List<String> all = new ArrayList<>();
        for (int g = 0; g < 320; g++) {
            String[] topic = LdaTextCorpusTest.PLANTED[g % 3];
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < 3 + 7 * g % 17; i++) {
                line.append(topic[(g + i) % topic.length]).append(" the ");
            }
            all.add(line.toString());
        }
        Files.write(dir.resolve("a.txt"), all.subList(0, 20));
        Files.write(dir.resolve("b.txt"), all.subList(20, all.size()));
        return all;
    }

    private Outputs run(String master, String partitions, String blocks, String... more) {
        Path out = tmp.resolve(master.replaceAll("\\W", "") + "-" + partitions + "-" + blocks + String.join("", more));
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("--partitions", partitions,
                "--blocks", blocks), java.util.stream.Stream.of(more)).toArray(String[]::new);
        return withSession(master, spark -> {
            assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(out, 3, args)));
            return outputs(spark, out);
        });
    }

    private Outputs runText(String master, Path dir) {
        Path out = tmp.resolve("text-" + master.replaceAll("\\W", ""));
        return withSession(master, spark -> {
            assertEquals(ExitCode.OK, Main.run("lda", "--text", dir.toString(), "--min-df", "1", "--topics", "3",
                    "--sweeps", "5", "--blocks", "3", "--held-out-every", "0", "--seed", "5", "--out",
                    out.toString()));
            return outputs(spark, out);
        });
    }

    private static Outputs outputs(SparkSession spark, Path out) {
        return new Outputs(LdaRuns.read(out.resolve("topics.csv")), LdaRuns.loglikWithoutTimes(out),
                LdaRuns.docTopics(spark, out));
    }

    /** {@code body} on a fresh local session, stopped afterwards. */
    static <T> T withSession(String master, Function<SparkSession, T> body) {
        return LocalSessions.with(master, "lda-determinism", body);
    }
}
