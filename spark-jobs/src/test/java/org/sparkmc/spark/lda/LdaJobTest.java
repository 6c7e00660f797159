package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;
import org.sparkmc.spark.sync.SyncVia;

/** The lda job end to end on KOS, and its Spark sampler against the one-machine AD-LDA it distributes. */
class LdaJobTest extends SparkTestBase {
    @TempDir
    Path tmp;

    /**
     * A word with more tokens than a packed (word, topic) cell holds at K (32,767 at K = 40,000) is sampled on a wide
     * row, in either mode: the job ends normally and the topic–word counts still hold each of its 40,000 tokens.
     */
    @ParameterizedTest
    @ValueSource(strings = {"broadcast", "model-parallel"})
    void aWordTooFrequentForAPackedCellRunsOnAWideRow(String mode) throws IOException {
        Path docword = Files.writeString(tmp.resolve("docword.txt"), "2\n3\n2\n1 1 40000\n2 2 1\n");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), "alpha\nbeta\ngamma\n");
        Path out = tmp.resolve("out");
        assertEquals(ExitCode.OK, Main.run(new String[] {"lda", "--docword", docword.toString(), "--vocab",
            vocab.toString(), "--out", out.toString(), "--topics", "40000", "--sweeps", "2", "--blocks", "2",
            "--held-out-every", "0", "--mode", mode}));
        long alpha = LdaRuns.read(out.resolve("topics.csv")).lines().filter(l -> l.contains(",alpha,"))
                .mapToLong(l -> Long.parseLong(l.split(",")[4])).sum();
        assertEquals(40_000, alpha);
    }

    @Test
    void writesEveryOutput() throws IOException {
        Path out = tmp.resolve("kos");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(out, 4, "--left-to-right", "5")));
        for (String f : List.of("_SUCCESS", "topics.csv", "topic_word.parquet", "doc_topic.parquet", "loglik.csv",
                "vocabulary.txt", "summary.json", "report.html")) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
        List<String> topics = LdaRuns.read(out.resolve("topics.csv")).lines().toList();
        assertEquals("topic,rank,word_id,word,count,probability", topics.get(0));
        assertEquals(1 + 10 * 20, topics.size());
        assertEquals(6906, LdaRuns.read(out.resolve("vocabulary.txt")).lines().count());
        // loglik.csv: the random start (sweep 0) and one row per sweep, the log-likelihood rising overall.
        List<String> loglik = LdaRuns.loglikWithoutTimes(out);
        assertEquals(1 + 5, loglik.size());
        assertTrue(Double.parseDouble(loglik.get(5).split(",")[1]) > Double.parseDouble(loglik.get(1).split(",")[1]));
        // Every training document's θ sums to 1; 3,087 training documents (KOS ids not multiples of 10).
        List<Row> docs = spark().read().parquet(out.resolve("doc_topic.parquet").toString()).collectAsList();
        assertEquals(3087, docs.size());
        for (Row r : docs) {
            double sum = r.<Double>getList(2).stream().mapToDouble(Double::doubleValue).sum();
            assertEquals(1.0, sum, 1e-9);
            assertTrue(r.getInt(0) % 10 != 0);
        }
        // Each topic's φ sums to 1 and its token counts add up to the training tokens.
        List<Row> phi = spark().read().parquet(out.resolve("topic_word.parquet").toString()).collectAsList();
        assertEquals(10, phi.size());
        long tokens = 0;
        for (Row r : phi) {
            assertEquals(1.0, r.<Double>getList(2).stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
            tokens += r.getLong(1);
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(tokens, summary.get("training_tokens").asLong());
        assertEquals(419_616, tokens);
        assertEquals(343, summary.get("held_out").get("documents").asInt());
        double perplexity = summary.get("held_out").get("perplexity").asDouble();
        // Ten topics after 4 sweeps beat the unigram model's ~2,000 only barely; a sane range, not a target.
        assertTrue(perplexity > 500 && perplexity < 6906, "perplexity " + perplexity);
        String report = LdaRuns.read(out.resolve("report.html"));
        assertTrue(report.contains("log p(w, z) per token") && report.contains("left-to-right"));
        // Top words read left to right from a common left edge; the numbers stay right-aligned.
        assertTrue(report.contains("td.text{text-align:left}") && report.contains("<th class=\"text\">top words</th>")
                && report.contains("</td><td class=\"text\">"), report);
        // Seconds are never negative: the time axis starts at 0.
        String times = report.substring(report.indexOf("seconds per step"));
        times = times.substring(0, times.indexOf("</svg>"));
        assertFalse(times.contains("class=\"ya\">-"), times);
        // The left-to-right estimate is core's LeftToRight on the held-out documents with the final counts, which
        // are the one-machine AD-LDA's (same seed and blocks).
        Corpus kos = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect();
        LdaPriors priors = new LdaPriors(10, 5.0, 0.01);
        AdLdaDriver driver = AdLdaDriver.start(kos.selectByDocId(id -> id % 10 != 0), 4, priors,
                new RandomStreams(11));
        for (int s = 0; s < 4; s++) {
            driver.sweep();
        }
        DocumentCompletion.Result expected = LeftToRight.of(5, ResamplingScheme.SYSTEMATIC, 1).evaluate(
                driver.counts(), priors, kos.selectByDocId(id -> id % 10 == 0), new RandomStreams(11));
        JsonNode l2r = summary.get("held_out").get("left_to_right");
        assertEquals(expected.perplexity(), l2r.get("perplexity").asDouble(), 1e-9 * expected.perplexity());
        assertEquals(expected.scoredTokens(), l2r.get("tokens").asLong());
        assertEquals(5, l2r.get("particles").asInt());
        assertEquals(1, l2r.get("moves_after_resampling").asInt());
    }

    /** The shipped KOS documents whose id is a multiple of {@code n}. */
    private Corpus kosEvery(int n) {
        return LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect()
                .selectByDocId(id -> id % n == 0);
    }

    /**
     * The Spark sampler is the one-machine AD-LDA distributed: the same seed and blocks give the same topics of every
     * block and the same global counts, here on 3 partitions for 5 blocks.
     */
    @Test
    void sparkSamplerEqualsTheOneMachineDriver() {
        Corpus kos = kosEvery(7);
        LdaPriors priors = new LdaPriors(8, 0.2, 0.01);
        AdLdaSpark spark = AdLdaSpark.start(jsc(), kos,
                new AdLdaSpark.Options(priors, 5, 3, 99, LdaKernel.SPARSE_GIBBS, 2, SyncVia.JOBS));
        AdLdaDriver driver = AdLdaDriver.start(kos, 5, priors, new RandomStreams(99));
        for (int s = 0; s < 3; s++) {
            spark.step(1);
            driver.sweep();
        }
        assertEquals(driver.counts(), spark.counts());
        List<LdaBlock> blocks = spark.blocks().collect();
        assertEquals(5, blocks.size());
        for (LdaBlock b : blocks) {
            assertArrayEquals(driver.topics(b.id()), b.topics(), "block " + b.id());
        }
        assertEquals(driver.logLikelihood(), spark.logLikelihood(), 1e-9 * Math.abs(driver.logLikelihood()));
        spark.close();
    }

    /**
     * The relayed steps (one barrier stage; the blocks exchange their changes through the driver's relay) are the
     * one-job-per-step steps bit for bit: every step's log-likelihood, the counts and every block's topics, with one
     * and with two sweeps per step, over two stages in a row. Five blocks on two partitions. The driver has the counts
     * after the steps it asked for and after each stage, and refuses to give stale ones after the others.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void relayedStepsEqualOneJobPerStep(int sweepsPerStep) {
        Corpus kos = kosEvery(7);
        LdaPriors priors = new LdaPriors(8, 0.2, 0.01);
        AdLdaSpark jobs = AdLdaSpark.start(jsc(), kos,
                new AdLdaSpark.Options(priors, 5, 2, 99, LdaKernel.SPARSE_GIBBS, 2, SyncVia.JOBS));
        AdLdaSpark relay = AdLdaSpark.start(jsc(), kos,
                new AdLdaSpark.Options(priors, 5, 2, 99, LdaKernel.SPARSE_GIBBS, 2, SyncVia.RELAY));
        List<AdLdaSpark.Step> relayed = new ArrayList<>();
        List<AdLdaSpark.Step> stepped = new ArrayList<>();
        Map<Integer, TopicWordCounts> relayedCounts = new HashMap<>();
        Map<Integer, TopicWordCounts> steppedCounts = new HashMap<>();
        IntPredicate wanted = sweep -> sweep == sweepsPerStep;
        for (int stage : new int[] {3, 2}) {
            relay.advance(stage, sweepsPerStep, wanted, s -> {
                relayed.add(s);
                assertEquals(s.logLikelihood(), relay.logLikelihood(), "the run's state is the step's");
                boolean stageEnd = relayed.size() == 3 || relayed.size() == 5;
                if (wanted.test(s.sweeps()) || stageEnd) {
                    relayedCounts.put(s.sweeps(), relay.counts());
                } else {
                    assertThrows(IllegalStateException.class, relay::counts, "sweep " + s.sweeps());
                }
            });
            // A stage's blocks are cut once it ends: a recomputation could not rerun it (its relay is closed).
            assertTrue(relay.blocks().isCheckpointed(), "the blocks after a relayed stage are checkpointed");
            jobs.advance(stage, sweepsPerStep, s -> {
                stepped.add(s);
                steppedCounts.put(s.sweeps(), jobs.counts());
            });
        }
        assertEquals(Set.of(sweepsPerStep, 3 * sweepsPerStep, 5 * sweepsPerStep), relayedCounts.keySet());
        relayedCounts.forEach((sweep, c) -> assertEquals(steppedCounts.get(sweep), c, "counts after sweep " + sweep));
        assertEquals(5, relayed.size());
        for (int i = 0; i < 5; i++) {
            assertTrue(relayed.get(i).relayed() && !stepped.get(i).relayed());
            assertEquals(stepped.get(i).sweeps(), relayed.get(i).sweeps());
            assertEquals((i + 1) * sweepsPerStep, relayed.get(i).sweeps());
            assertEquals(stepped.get(i).logLikelihood(), relayed.get(i).logLikelihood(), "step " + i);
        }
        assertEquals(jobs.counts(), relay.counts());
        Map<Integer, char[]> topics = new HashMap<>();
        jobs.blocks().collect().forEach(b -> topics.put(b.id(), b.topics()));
        List<LdaBlock> blocks = relay.blocks().collect();
        assertEquals(5, blocks.size());
        for (LdaBlock b : blocks) {
            assertArrayEquals(topics.get(b.id()), b.topics(), "block " + b.id());
        }
        jobs.close();
        relay.close();
    }

    /** A relay that cannot get every partition a task slot at once is refused, not left to Spark's ten-minute wait. */
    @Test
    void aRelayWiderThanTheSlotsIsRefused() {
        AdLdaSpark run = AdLdaSpark.start(jsc(), kosEvery(11), new AdLdaSpark.Options(new LdaPriors(4, 0.2, 0.01), 3,
                3, 7, LdaKernel.SPARSE_GIBBS, 2, SyncVia.RELAY));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run.advance(1, 1, s -> { }));
        assertTrue(e.getMessage().contains("3 partitions need 3 task slots and the executors have 2"), e.getMessage());
        run.close();
    }

    /** A lineage interval of −1 never cuts the blocks' lineage, not even after the random start; same chain. */
    @Test
    void lineageIntervalMinusOneNeverCuts() {
        Corpus kos = kosEvery(11);
        LdaPriors priors = new LdaPriors(5, 0.2, 0.01);
        AdLdaSpark cut = AdLdaSpark.start(jsc(), kos,
                new AdLdaSpark.Options(priors, 3, 2, 7, LdaKernel.SPARSE_GIBBS, 1, SyncVia.JOBS));
        AdLdaSpark never = AdLdaSpark.start(jsc(), kos,
                new AdLdaSpark.Options(priors, 3, 2, 7, LdaKernel.SPARSE_GIBBS, -1, SyncVia.JOBS));
        for (int s = 0; s < 3; s++) {
            assertTrue(cut.blocks().isCheckpointed());
            assertFalse(never.blocks().isCheckpointed(), "cut at step " + (s + 1));
            cut.step(1);
            never.step(1);
        }
        assertFalse(never.blocks().isCheckpointed());
        assertEquals(cut.counts(), never.counts());
        cut.close();
        never.close();
    }

    /**
     * A run extended from its checkpoint equals a run that went straight to the end; resuming it with fewer sweeps
     * than it has done is refused.
     */
    @Test
    void resumedRunEqualsUninterruptedOne() {
        Path straight = tmp.resolve("straight");
        Path first = tmp.resolve("first");
        Path resumed = tmp.resolve("resumed");
        String checkpoint = tmp.resolve("ckpt").toString();
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(straight, 6)));
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(first, 4, "--checkpoint", checkpoint, "--checkpoint-every",
                "2")));
        BadInputTest.Result tooFew = BadInputTest.runCapturing(LdaRuns.kos(tmp.resolve("short"), 2, "--checkpoint",
                checkpoint, "--resume"));
        assertEquals(ExitCode.BAD_INPUT, tooFew.code(), tooFew.err());
        assertTrue(tooFew.err().contains("is after sweep 4: --sweeps must be at least 4 to resume it, is 2"),
                tooFew.err());
        assertTrue(Files.notExists(tmp.resolve("short")));
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(resumed, 6, "--checkpoint", checkpoint, "--resume",
                "--partitions", "3")));
        assertEquals(LdaRuns.read(straight.resolve("topics.csv")), LdaRuns.read(resumed.resolve("topics.csv")));
        assertEquals(LdaRuns.loglikWithoutTimes(straight), LdaRuns.loglikWithoutTimes(resumed));
        assertEquals(LdaRuns.docTopics(spark(), straight), LdaRuns.docTopics(spark(), resumed));
        assertEquals(LdaRuns.summaryWithoutTimes(straight).stream().filter(l -> !l.contains("\"partitions\"")).toList(),
                LdaRuns.summaryWithoutTimes(resumed).stream().filter(l -> !l.contains("\"partitions\"")).toList());
    }

    /**
     * The model-parallel mode resumes too, with either kernel: 2 sweeps checkpointed, resumed to 4 on another number
     * of partitions, equal a straight run of 4 (topics, log-likelihoods, document topics); its checkpoint is refused
     * in the broadcast mode. The summary gives the partitions used: a divisor of the blocks.
     */
    @ParameterizedTest
    @CsvSource({"sparse, sparse-gibbs", "cycle-mh, cycle-mh"})
    void modelParallelRunResumesOnlyInItsMode(String kernel, String kernelInSummary) {
        Path straight = tmp.resolve("straight");
        String checkpoint = tmp.resolve("ckpt").toString();
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(straight, 4, "--mode", "model-parallel", "--kernel", kernel,
                "--partitions", "3")));
        String summary = LdaRuns.read(straight.resolve("summary.json"));
        assertTrue(summary.contains("\"mode\" : \"model-parallel\"") && summary.contains("\"kernel\" : \""
                + kernelInSummary + "\""), summary);
        // 4 blocks run on the largest divisor of 4 that is at most --partitions 3, and the summary says so.
        assertTrue(summary.contains("\"partitions\" : 2,"), summary);
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(tmp.resolve("first"), 2, "--mode", "model-parallel",
                "--kernel", kernel, "--checkpoint", checkpoint, "--checkpoint-every", "2")));
        BadInputTest.Result broadcast = BadInputTest.runCapturing(LdaRuns.kos(tmp.resolve("broadcast"), 4,
                "--mode", "broadcast", "--kernel", kernel, "--checkpoint", checkpoint, "--resume"));
        assertEquals(ExitCode.BAD_INPUT, broadcast.code(), broadcast.err());
        assertTrue(broadcast.err().contains("mode: checkpoint model-parallel, now broadcast; totals-sync: checkpoint "
                + "sweep, now none"), broadcast.err());
        Path resumed = tmp.resolve("resumed");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(resumed, 4, "--mode", "model-parallel", "--kernel", kernel,
                "--checkpoint", checkpoint, "--resume", "--partitions", "4")));
        assertEquals(LdaRuns.read(straight.resolve("topics.csv")), LdaRuns.read(resumed.resolve("topics.csv")));
        assertEquals(LdaRuns.loglikWithoutTimes(straight), LdaRuns.loglikWithoutTimes(resumed));
        assertEquals(LdaRuns.docTopics(spark(), straight), LdaRuns.docTopics(spark(), resumed));
    }

    /**
     * A checkpoint resumes only on the corpus it was made on: the file rewritten with the same documents and counts
     * but every word id changed (same D, tokens, W and NNZ) is refused as other data; the original content at
     * another path resumes.
     */
    @Test
    void checkpointOfAnotherCorpusIsRefused() throws IOException {
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), "a\nb\nc\nd\ne\nf\ng\nh\n");
        Path corpus = Files.writeString(tmp.resolve("docword.a.txt"), smallDocword(0));
        Path checkpoint = tmp.resolve("ckpt");
        assertEquals(ExitCode.OK, Main.run(smallRun(corpus, vocab, tmp.resolve("a"), 2, "--checkpoint",
                checkpoint.toString())));
        Files.writeString(corpus, smallDocword(1));
        BadInputTest.Result other = BadInputTest.runCapturing(smallRun(corpus, vocab, tmp.resolve("b"), 4,
                "--checkpoint", checkpoint.toString(), "--resume"));
        assertEquals(ExitCode.BAD_INPUT, other.code(), other.err());
        assertTrue(other.err().contains(" was made on other data (data-content: checkpoint "), other.err());
        assertTrue(other.err().contains("; --resume needs the same data"), other.err());
        assertTrue(Files.notExists(tmp.resolve("b")));
        Path moved = Files.writeString(tmp.resolve("docword.moved.txt"), smallDocword(0));
        assertEquals(ExitCode.OK, Main.run(smallRun(moved, vocab, tmp.resolve("c"), 4, "--checkpoint",
                checkpoint.toString(), "--resume")));
    }

    /** 12 documents of 3 distinct words out of 8, each word id shifted by {@code shift} (mod 8). */
    private static String smallDocword(int shift) {
        StringBuilder b = new StringBuilder("12\n8\n36\n");
        for (int d = 1; d <= 12; d++) {
            for (int j = 0; j < 3; j++) {
                int w = (d + 3 * j) % 8;
                b.append(d).append(' ').append((w + shift) % 8 + 1).append(' ').append(1 + (d + j) % 4).append('\n');
            }
        }
        return b.toString();
    }

    private static String[] smallRun(Path docword, Path vocab, Path out, int sweeps, String... extra) {
        String[] base = {"lda", "--docword", docword.toString(), "--vocab", vocab.toString(), "--topics", "3",
            "--blocks", "2", "--sweeps", Integer.toString(sweeps), "--held-out-every", "0", "--top-words", "3",
            "--seed", "5", "--out", out.toString()};
        return java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(extra))
                .toArray(String[]::new);
    }

    /**
     * A checkpoint made with other settings, resumed with fewer sweeps than it holds, or with its topics missing or
     * damaged is refused before Spark starts (no Spark job runs; it took a read of the corpus, and a trace of
     * Spark's for the topics), and the directory is left as it was: an earlier run's leftover lineage cut is kept and
     * no new one is made. A state file edited by hand is refused as corrupt.
     */
    @Test
    void corruptOrForeignCheckpointsAreRefused() throws IOException {
        Path checkpoint = tmp.resolve("ckpt");
        assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(tmp.resolve("a"), 2, "--checkpoint", checkpoint.toString())));
        Path leftover = Files.createDirectories(checkpoint.resolve("rdd/00000000-0000-0000-0000-000000000000/rdd-3"));
        List<Path> lineage = listing(checkpoint.resolve("rdd"));
        assertRefusedBeforeSpark(checkpoint, 4, "was made by a run with other settings (num-topics: checkpoint 10, "
                + "now 12)", "--topics", "12", "--alpha", "5");
        assertRefusedBeforeSpark(checkpoint, 4, "was made by a run with other settings (mode: checkpoint broadcast, "
                + "now model-parallel; totals-sync: checkpoint none, now sweep)", "--mode", "model-parallel");
        assertRefusedBeforeSpark(checkpoint, 1, "is after sweep 2: --sweeps must be at least 2 to resume it, is 1");
        Path topics = checkpoint.resolve("topics-00002.parquet");
        Path part;
        try (var files = Files.list(topics)) {
            part = files.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        Files.writeString(part, "not parquet");
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));
        assertRefusedBeforeSpark(checkpoint, 4, "topics-00002.parquet cannot be read (");
        org.apache.commons.io.FileUtils.deleteDirectory(topics.toFile());
        assertRefusedBeforeSpark(checkpoint, 4, "is incomplete: its topics ");
        assertTrue(Files.isDirectory(leftover), "an earlier run's lineage cut was deleted by a refused run");
        assertEquals(lineage, listing(checkpoint.resolve("rdd")), "a refused run changed the lineage directories");

        Path state;
        try (var files = Files.list(checkpoint)) {
            state = files.filter(p -> p.getFileName().toString().matches("state-\\d+\\.json")).findFirst()
                    .orElseThrow();
        }
        Files.writeString(state, Files.readString(state).replace("\"sweeps\":2", "\"sweeps\":3"));
        Files.deleteIfExists(state.resolveSibling("." + state.getFileName() + ".crc"));
        assertRefusedBeforeSpark(checkpoint, 4, "is corrupt (its SHA-256 does not match its content)");
    }

    private static List<Path> listing(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    /**
     * Resuming {@code checkpoint} to {@code sweeps} with {@code options} is refused with {@code expected}, before any
     * Spark job.
     */
    private void assertRefusedBeforeSpark(Path checkpoint, int sweeps, String expected, String... options) {
        Path out = tmp.resolve("refused");
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of("--checkpoint", checkpoint.toString(), "--resume"));
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        String[] run = LdaRuns.kos(out, sweeps, args.toArray(String[]::new));
        int jobs = sparkJobs(() -> r[0] = BadInputTest.runCapturing(run));
        assertEquals(ExitCode.BAD_INPUT, r[0].code(), r[0].err());
        assertTrue(r[0].err().contains(expected), r[0].err());
        assertEquals(0, jobs, "Spark jobs ran before the refusal: " + r[0].err());
        assertTrue(Files.notExists(out));
    }
}
