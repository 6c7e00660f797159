package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.PlantedCorpus;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * {@code lda --chains}: the chains and the one chosen do not depend on the partitions or cores, the chosen chain is
 * the one of highest score and its outputs are those of a plain run with its seed (in both modes), and bad values
 * exit 2 before Spark starts. On a small planted corpus (D = 400, V = 300, K = 5, about 20,000 tokens); every run has
 * a fixed seed and is deterministic, so nothing here fails by chance.
 */
class LdaChainsTest {
    private static final PlantedCorpus.Settings SETTINGS = new PlantedCorpus.Settings(400, 300, 5, 50, 0.2, 1.0, 0.1,
            7L);

    @TempDir
    Path tmp;

    /** The corpus as UCI files: docword (1-based ids, each document's words in increasing id) and vocabulary. */
    private Path[] corpus() {
        Path docword = tmp.resolve("docword.planted.txt");
        Path vocab = tmp.resolve("vocab.planted.txt");
        if (Files.exists(docword)) {
            return new Path[] {docword, vocab};
        }
        PlantedCorpus model = PlantedCorpus.of(SETTINGS);
        List<String> lines = new ArrayList<>();
        for (int d = 1; d <= 400; d++) {
            PlantedCorpus.Document doc = model.document(d);
            for (int j = 0; j < doc.words().length; j++) {
                lines.add(d + " " + (doc.words()[j] + 1) + " " + doc.counts()[j]);
            }
        }
        List<String> words = new ArrayList<>();
        for (int w = 0; w < 300; w++) {
            words.add("w" + w);
        }
        try {
            Files.writeString(docword, "400\n300\n" + lines.size() + "\n" + String.join("\n", lines) + "\n");
            Files.write(vocab, words);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Path[] {docword, vocab};
    }

    /** The run's options; those in {@code more} replace the defaults here. */
    private String[] args(Path out, String... more) {
        Path[] files = corpus();
        List<String> defaults = List.of("--topics", "5", "--alpha", "0.2", "--sweeps", "12", "--blocks", "4",
                "--eval-burn-in", "2", "--eval-samples", "2", "--seed", "3");
        List<String> args = new ArrayList<>(List.of("lda", "--docword", files[0].toString(), "--vocab",
                files[1].toString(), "--out", out.toString()));
        for (int i = 0; i < defaults.size(); i += 2) {
            if (!List.of(more).contains(defaults.get(i))) {
                args.addAll(defaults.subList(i, i + 2));
            }
        }
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private record Outputs(String topics, List<String> loglik, List<String> docTopics, String chains) {
    }

    private Outputs run(String master, String name, String... more) {
        Path out = tmp.resolve(name);
        return LdaDeterminismTest.withSession(master, spark -> {
            assertEquals(ExitCode.OK, Main.run(args(out, more)));
            JsonNode chains = summary(out).get("chains");
            return new Outputs(LdaRuns.read(out.resolve("topics.csv")), LdaRuns.loglikWithoutTimes(out),
                    LdaRuns.docTopics(spark, out), chains == null ? null : chains.toString());
        });
    }

    /**
     * Three chains explored for 6 of the 12 sweeps give the same chain scores, choice, topics, log-likelihoods and
     * document topics on one partition (local[1]) as on two and four (local[2]), relayed or one Spark job a sweep.
     */
    @Test
    void chainsDoNotDependOnCoresOrPartitions() {
        Outputs one = run("local[1]", "p1", "--chains", "3", "--chain-sweeps", "6", "--partitions", "1");
        assertEquals(one, run("local[2]", "p2", "--chains", "3", "--chain-sweeps", "6", "--partitions", "2"));
        assertEquals(one, run("local[2]", "p4jobs", "--chains", "3", "--chain-sweeps", "6", "--partitions", "4",
                "--sync-via", "jobs"));
    }

    /**
     * The chosen chain has the highest score of the explored chains, each chain's seed is {@link
     * BestOfChains#chainSeed} and its score is core's ({@link BestOfChains#run} on the same training documents in the
     * same 4 blocks; on this corpus and seed core chooses chain 2, not chain 0), and the run's outputs (topics,
     * log-likelihood rows from sweep 0, document topics) are those of a plain run with the chosen seed, which also
     * shows that the chosen chain went on from its explored state. In the broadcast and in the model-parallel mode
     * (whose chains differ from the broadcast mode's, so only the choice is checked against the scores there).
     */
    @Test
    void theChosenChainHasTheHighestScoreAndIsThePlainRunOfItsSeed() {
        PlantedCorpus model = PlantedCorpus.of(SETTINGS);
        BestOfChains.Result core = BestOfChains.run(model.trainingCorpus(10), 4, new LdaPriors(5, 0.2, 0.01), 3L, 4,
                6, 6);
        assertEquals(2, core.chosen(), "the premise: core chooses another chain than chain 0 " + core.scores());
        for (String mode : new String[] {"broadcast", "model-parallel"}) {
            Path out = tmp.resolve("chains-" + mode);
            Outputs several = run("local[2]", "chains-" + mode, "--chains", "4", "--chain-sweeps", "6", "--mode",
                    mode);
            JsonNode chains = summary(out).get("chains");
            assertEquals(4, chains.get("explored").size());
            assertEquals("mean log p(w,z) per token over each chain's last 6 chain sweeps", // fewer than the window
                    chains.get("score").asText());
            int best = 0;
            for (int c = 0; c < 4; c++) {
                JsonNode chain = chains.get("explored").get(c);
                assertEquals(c, chain.get("chain").asInt());
                assertEquals(BestOfChains.chainSeed(3L, c), chain.get("seed").asLong());
                if (mode.equals("broadcast")) {
                    double expected = core.scores().get(c).score();
                    assertEquals(expected, chain.get("score").asDouble(), 1e-12 * Math.abs(expected), "chain " + c);
                }
                if (chain.get("score").asDouble() > chains.get("explored").get(best).get("score").asDouble()) {
                    best = c;
                }
            }
            assertEquals(best, chains.get("chosen").asInt(), chains.toString());
            long seed = chains.get("chosen_seed").asLong();
            assertEquals(BestOfChains.chainSeed(3L, best), seed);
            Outputs plain = run("local[2]", "plain-" + mode, "--seed", Long.toString(seed), "--mode", mode);
            assertEquals(plain.topics(), several.topics(), mode);
            assertEquals(plain.loglik(), several.loglik(), mode);
            assertEquals(plain.docTopics(), several.docTopics(), mode);
            assertEquals(mode, summary(out).get("mode").asText());
        }
    }

    /** Bad values of --chains and --chain-sweeps, and several chains with checkpoints, exit 2 with nothing written. */
    @Test
    void badValuesExitTwo() {
        Path out = tmp.resolve("bad");
        assertBadInput(out, args(out, "--chains", "0"), "--chains must be in [1, 1000], is 0");
        assertBadInput(out, args(out, "--chains", "1001"), "--chains must be in [1, 1000], is 1001");
        assertBadInput(out, args(out, "--chains", "2", "--chain-sweeps", "-1"), "--chain-sweeps must be in [0, 12], "
                + "is -1");
        assertBadInput(out, args(out, "--chains", "2", "--chain-sweeps", "13"), "--chain-sweeps must be in [0, 12], "
                + "is 13");
        assertBadInput(out, args(out, "--chains", "2", "--chain-sweeps", "5", "--sync-interval", "2"),
                "--chain-sweeps (5) must be a multiple of --sync-interval (2)");
        assertBadInput(out, args(out, "--chains", "2", "--checkpoint", tmp.resolve("ckpt").toString()),
                "--chains 2 runs its chains in turn and keeps the best, and takes no --checkpoint or --resume",
                "--chains 1 --seed");
        assertFalse(Files.exists(tmp.resolve("ckpt")), "no checkpoint directory made");
    }

    private static void assertBadInput(Path out, String[] args, String... expected) {
        LdaBadInputTest.assertBadInput(out, args, expected);
    }

    private static JsonNode summary(Path out) {
        try {
            return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
