package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/** Bad input to the lda job exits with code 2, one message saying what and where, and nothing written. */
class LdaBadInputTest extends SparkTestBase {
    private static final String VOCAB3 = "alpha\nbeta\ngamma\n";

    @TempDir
    Path tmp;

    static Stream<Arguments> docwords() {
        return Stream.of(
                Arguments.of("a line with two fields", "2\n3\n3\n1 1 2\n1 2\n2 3 1\n", new String[] {"line 5"}),
                Arguments.of("a word id beyond the vocabulary", "2\n3\n2\n1 1 2\n2 4 1\n",
                        new String[] {"line 5", "wordID 4"}),
                Arguments.of("a negative count", "2\n3\n2\n1 1 -2\n2 3 1\n", new String[] {"line 4", "count -2"}),
                Arguments.of("a non-numeric field", "2\n3\n2\n1 x 2\n2 3 1\n", new String[] {"line 4"}),
                Arguments.of("fewer lines than the header's NNZ", "2\n3\n5\n1 1 2\n2 3 1\n",
                        new String[] {"NNZ=5"}),
                Arguments.of("more lines than the header's NNZ", "2\n3\n1\n1 1 2\n2 3 1\n",
                        new String[] {"line 5", "NNZ=1"}),
                Arguments.of("a (docID, wordID) pair twice", "2\n3\n4\n1 1 2\n1 3 1\n2 3 1\n1 1 5\n",
                        new String[] {"lines 4 and 7: docID 1 and wordID 1 twice (counts 2 and 5); a docword file "
                            + "lists each (docID, wordID) pair once"}),
                Arguments.of("a document id beyond D", "2\n3\n2\n1 1 2\n3 3 1\n", new String[] {"line 5", "docID 3"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("docwords")
    void badDocwordNamesFileAndLine(String name, String docword, String[] expected) throws IOException {
        Path file = tmp.resolve("docword.bad.txt");
        Files.writeString(file, docword);
        Path vocab = tmp.resolve("vocab.txt");
        Files.writeString(vocab, VOCAB3);
        String[] all = {"lda", "--docword", file.toString(), "--vocab", vocab.toString(), "--topics", "2",
            "--sweeps", "2", "--out", tmp.resolve("out").toString()};
        String err = assertBadInput(tmp.resolve("out"), all, expected);
        assertTrue(err.contains(file.toString()), err);
    }

    /**
     * Docword directories as {@code sparkmc generate-lda} writes them: a header file, then part files. part-00000 is
     * gzipped ("d 1 1", d = 1..100); part-00001 ("d 2 1", d = 1..1000, but for the line given) is long enough to be
     * read as two splits. {dir} stands for the directory.
     */
    static Stream<Arguments> docwordDirectories() {
        return Stream.of(
                Arguments.of("a word id of 0 in a later part", "1000\n3\n1100\n", 900, "900 0 1",
                        new String[] {"{dir}/part-00001 line 900: wordID 0 outside 1..3 (header W)"}),
                Arguments.of("a pair in two parts", "1000\n3\n1100\n", 950, "7 1 3",
                        new String[] {"{dir}/part-00000.gz line 7 and ", "{dir}/part-00001 line 950: docID 7 and "
                            + "wordID 1 twice (counts 1 and 3)"}),
                Arguments.of("a pair twice in a later part", "1000\n3\n1100\n", 950, "10 2 5",
                        new String[] {"{dir}/part-00001 lines 10 and 950: docID 10 and wordID 2 twice (counts 1 "
                            + "and 5)"}),
                Arguments.of("more lines than the header's NNZ", "1000\n3\n1099\n", 0, "",
                        new String[] {"{dir}/part-00001 line 1000: more body lines than the header's NNZ=1099"}),
                Arguments.of("fewer lines than the header's NNZ", "1000\n3\n1101\n", 0, "",
                        new String[] {"{dir}: the header says NNZ=1101 lines but the body has 1100 (after line 1000 "
                            + "of ", "{dir}/part-00001)"}),
                Arguments.of("a header without W", "1000\nx\n1100\n", 0, "",
                        new String[] {"{dir}/header line 2: expected header W (vocabulary size)"}));
    }

    /** In a docword directory, a message names the part file and the line in it, not the directory's line. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("docwordDirectories")
    void badDocwordDirectoryNamesThePartFileAndItsLine(String name, String header, int line, String text,
            String[] expected) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("docword"));
        Files.writeString(dir.resolve("header"), header);
        StringBuilder part = new StringBuilder();
        for (int d = 1; d <= 100; d++) {
            part.append(d).append(" 1 1\n");
        }
        try (Writer out = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(
                dir.resolve("part-00000.gz"))), StandardCharsets.US_ASCII)) {
            out.write(part.toString());
        }
        part.setLength(0);
        for (int d = 1; d <= 1000; d++) {
            part.append(d == line ? text : d + " 2 1").append('\n');
        }
        Files.writeString(dir.resolve("part-00001"), part);
        Files.writeString(dir.resolve("_SUCCESS"), "");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        String[] all = {"lda", "--docword", dir.toString(), "--vocab", vocab.toString(), "--topics", "2",
            "--sweeps", "2", "--out", tmp.resolve("out").toString()};
        assertBadInput(tmp.resolve("out"), all,
                Stream.of(expected).map(e -> e.replace("{dir}", dir.toString())).toArray(String[]::new));
    }

    static Stream<Arguments> options() {
        return Stream.of(
                Arguments.of("no corpus", new String[] {}, new String[] {"--docword FILE --vocab FILE, or as --text"}),
                Arguments.of("both corpora", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--text", LdaRuns.VOCAB}, new String[] {"exactly one of the two"}),
                Arguments.of("docword without vocab", new String[] {"--docword", LdaRuns.DOCWORD},
                        new String[] {"--docword needs --vocab"}),
                Arguments.of("missing file", new String[] {"--docword", "/nonexistent/docword.txt", "--vocab",
                    LdaRuns.VOCAB}, new String[] {"no such file: /nonexistent/docword.txt"}),
                Arguments.of("zero topics", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--topics", "0"}, new String[] {"--topics must be in [1, 65535], is 0"}),
                Arguments.of("negative beta", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--beta", "-1"}, new String[] {"--beta must be a finite number > 0, is -1"}),
                Arguments.of("alpha overflowing the log-likelihood", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--alpha", "1e308"}, new String[] {"--alpha is 1.0E308, above its limit "
                        + "1000000.0: beyond it the log-likelihood's log-gamma terms lose their precision"}),
                Arguments.of("beta overflowing the log-likelihood", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--beta", "1e308"}, new String[] {"--beta is 1.0E308, above its limit "
                        + "1000000.0", "every topic's word distribution uniform"}),
                Arguments.of("negative partitions", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--partitions", "-3"},
                        new String[] {"--partitions must be ≥ 0 (0: Spark's default parallelism), is -3"}),
                Arguments.of("unknown kernel", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--kernel", "vb"}, new String[] {"--kernel must be sparse (also sparse-gibbs, sparse_gibbs) or "
                        + "cycle-mh (also cycle_mh), is 'vb'"}),
                Arguments.of("resume without checkpoint", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--resume"}, new String[] {"--resume needs --checkpoint DIR"}),
                Arguments.of("zero topic samples", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--topic-samples", "0"}, new String[] {"--topic-samples must be ≥ 1, is 0"}),
                Arguments.of("zero sweeps", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--sweeps", "0"}, new String[] {"--sweeps must be ≥ 1, is 0"}),
                Arguments.of("every document held out (found only after Spark had read the corpus)", new String[] {
                    "--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB, "--held-out-every", "1"},
                        new String[] {"--held-out-every must be 0 (no held-out documents) or ≥ 2, is 1"}),
                Arguments.of("a vocabulary beside text (it was ignored)", new String[] {"--text", LdaRuns.VOCAB,
                    "--vocab", LdaRuns.VOCAB}, new String[] {"--vocab goes with --docword; with --text the vocabulary "
                        + "is built from the text"}),
                Arguments.of("negative eval burn-in", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--eval-burn-in", "-4"}, new String[] {"--eval-burn-in must be ≥ 0, is -4"}),
                Arguments.of("zero lineage interval", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--lineage-every", "0"}, new String[] {"--lineage-every must be ≥ 1, is 0"}),
                Arguments.of("topic samples before sweep 1", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--sweeps", "6", "--topic-samples", "4", "--topic-sample-every", "2"},
                        new String[] {"--topic-samples 4 every 2 sweeps reaches back before sweep 1 of 6"}),
                Arguments.of("topic samples between syncs", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--sync-interval", "2", "--topic-samples", "3", "--topic-sample-every", "3"},
                        new String[] {"--topic-sample-every (3) and --sweeps (200) must be multiples of it"}),
                Arguments.of("negative left-to-right particles", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--left-to-right", "-1"}, new String[] {"--left-to-right must be ≥ 0, is -1"}),
                Arguments.of("unknown sync-via", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--sync-via", "barrier"},
                        new String[] {"--sync-via must be auto, relay or jobs, is 'barrier'"}),
                // It ran, the extra partitions empty, and summary.json recorded 16 partitions for 8 blocks.
                Arguments.of("more partitions than blocks", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--partitions", "16"}, new String[] {"--partitions 16 exceeds the 8 --blocks: each "
                        + "partition holds whole blocks, so 8 would stay empty"}),
                Arguments.of("a relay wider than the task slots", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--sweeps", "2", "--partitions", "3", "--sync-via", "relay"},
                        new String[] {"--sync-via relay runs every partition's task at once, but 3 partitions need 3 "
                            + "task slots and the executors have 2; use fewer --partitions or --sync-via jobs"}),
                Arguments.of("negative left-to-right moves", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--left-to-right", "5", "--left-to-right-moves", "-2"},
                        new String[] {"--left-to-right-moves must be ≥ 0, is -2"}),
                Arguments.of("unknown mode", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab", LdaRuns.VOCAB,
                    "--mode", "ring"}, new String[] {"--mode must be auto, broadcast or model-parallel, is 'ring'"}),
                Arguments.of("unknown totals sync", new String[] {"--docword", LdaRuns.DOCWORD, "--vocab",
                    LdaRuns.VOCAB, "--mode", "model-parallel", "--totals-sync", "never"},
                        new String[] {"--totals-sync must be sweep or sub-step, is 'never'"}),
                Arguments.of("model-parallel with stale counts", new String[] {"--docword", LdaRuns.DOCWORD,
                    "--vocab", LdaRuns.VOCAB, "--mode", "model-parallel", "--sync-interval", "2"},
                        new String[] {"--mode model-parallel", "--sync-interval 2", "use --mode broadcast"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void badOptionsExitTwo(String name, String[] args, String[] expected) {
        String[] all = Stream.concat(Stream.of("lda", "--out", tmp.resolve("out").toString()), Stream.of(args))
                .toArray(String[]::new);
        assertBadInput(tmp.resolve("out"), all, expected);
    }

    /** More model-parallel blocks than words: one word slice a block cannot be cut (it failed with exit 1). */
    /**
     * Of several bad lines in several read splits, the first in the file is named (the task that failed first named
     * whichever it met: line 14926 of a file whose first bad line was 9590). Bad lines near both ends of a file Spark
     * reads in several splits; whichever split fails first, line 5 is reported.
     */
    @Test
    void theFirstBadLineIsNamedWhateverTaskFailsFirst() throws IOException {
        StringBuilder docword = new StringBuilder("100\n3\n20000\n");
        for (int i = 0; i < 20000; i++) {
            int doc = i == 1 || i == 19990 ? 101 : 1 + i / 200;
            docword.append(doc).append(' ').append(1 + i % 3).append(" 1\n");
        }
        Path file = Files.writeString(tmp.resolve("docword.split.txt"), docword);
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        for (int run = 0; run < 2; run++) {
            assertBadInput(tmp.resolve("out"), new String[] {"lda", "--docword", file.toString(), "--vocab",
                vocab.toString(), "--topics", "2", "--sweeps", "1", "--out",
                tmp.resolve("out").toString()}, new String[] {"line 5: docID 101 outside 1..100"});
        }
    }

    @Test
    void moreModelParallelBlocksThanWordsAreRefused() throws IOException {
        assertBadInput(tmp.resolve("out"), withCorpus("3\n3\n5\n1 1 2\n1 2 1\n2 3 4\n3 1 1\n3 2 2\n", "--mode",
                "model-parallel", "--blocks", "8", "--topics", "2", "--sweeps", "1", "--held-out-every", "0"),
                new String[] {"--blocks 8: the model-parallel mode cuts the vocabulary into one word slice a block, "
                        + "and the training documents use 3 words; give at most 3 blocks"});
    }

    /**
     * Options the run does not read are warned of (they were taken without a word), a config file's not: one file
     * may hold the settings of several runs. A missing corpus stops the runs after the warnings, before Spark.
     */
    @Test
    void optionsWithoutEffectAreWarnedOf() throws Exception {
        String missing = tmp.resolve("missing.txt").toString();
        String[] noEffect = {"lda", "--docword", missing, "--vocab", missing, "--out", tmp.resolve("o").toString(),
            "--min-df", "3", "--chain-sweeps", "5", "--mode", "broadcast", "--totals-sync", "sub-step",
            "--topic-sample-every", "3", "--held-out-every", "0", "--eval-samples", "4", "--left-to-right-moves", "2"};
        assertEquals(java.util.List.of(
                "--min-df has no effect with --docword (they build the vocabulary of --text)",
                "--chain-sweeps has no effect with one chain (--chains 1)",
                "--totals-sync has no effect with --mode broadcast (it is the model-parallel mode's)",
                "--topic-sample-every has no effect with one topic sample (--topic-samples 1)",
                "--eval-samples has no effect with --held-out-every 0 (no document is held out to evaluate)",
                "--left-to-right-moves has no effect with --held-out-every 0 (no document is held out to evaluate)"),
                org.sparkmc.spark.LoggedLines.of(LdaCommand.class, () -> BadInputTest.runCapturing(noEffect)));
        // Each option with the setting that reads it is not warned of.
        String[] used = {"lda", "--text", missing, "--out", tmp.resolve("o").toString(), "--min-df", "3",
            "--chains", "2", "--chain-sweeps", "5", "--mode", "model-parallel", "--totals-sync", "sub-step",
            "--topic-samples", "2", "--topic-sample-every", "3", "--eval-samples", "4", "--left-to-right", "5",
            "--left-to-right-moves", "2"};
        assertEquals(java.util.List.of(), org.sparkmc.spark.LoggedLines.of(LdaCommand.class,
                () -> BadInputTest.runCapturing(used)));
        Path conf = Files.writeString(tmp.resolve("all.conf"), "min-df = 3\nchain-sweeps = 5\n");
        BadInputTest.Result[] run = new BadInputTest.Result[1];
        assertEquals(java.util.List.of(), org.sparkmc.spark.LoggedLines.of(LdaCommand.class,
                () -> run[0] = BadInputTest.runCapturing("lda", "--conf", conf.toString(), "--docword", missing,
                        "--vocab", missing, "--out", tmp.resolve("o").toString())));
        assertEquals(ExitCode.BAD_INPUT, run[0].code(), run[0].err());
    }

    /**
     * A {@code --held-out-every} that holds out no document evaluated nothing without a word (exit 0, held_out null):
     * given, it is refused as 1 is, before Spark starts when it exceeds the header's D, else once the corpus is read
     * (here the multiple of 4, document 4, has no words); left at its default 10 on a smaller corpus it is a warning.
     */
    @Test
    void aHeldOutEveryThatHoldsOutNoDocumentIsRefusedWhenGiven() throws Exception {
        String corpus = "5\n3\n5\n1 1 2\n2 2 1\n3 3 4\n5 1 1\n5 2 2\n";
        String err = assertBadInput(tmp.resolve("out"), withCorpus(corpus, "--topics", "2", "--sweeps", "1",
                "--held-out-every", "1000"), new String[] {"--held-out-every 1000 holds out no document ("});
        assertTrue(err.contains("docword.txt says D=5, so its document ids run from 1 to 5), so nothing would be "
                + "evaluated: give a smaller value, or 0 for no held-out documents"), err);
        assertBadInput(tmp.resolve("out"), withCorpus(corpus, "--topics", "2", "--sweeps", "1", "--held-out-every",
                "4"), new String[] {"--held-out-every 4 holds out no document (none of the 4 documents with words in ",
                    " has an id that is a multiple of 4)"});
        Path conf = Files.writeString(tmp.resolve("held.conf"), "held-out-every = 1000\n");
        String[] fromConf = withCorpus(corpus, "--conf", conf.toString(), "--topics", "2", "--sweeps", "1");
        assertBadInput(tmp.resolve("out"), fromConf, new String[] {"--held-out-every 1000 holds out no document"});
        String[] byDefault = withCorpus(corpus, "--topics", "2", "--sweeps", "1", "--blocks", "1");
        int[] code = new int[1];
        assertEquals(java.util.List.of("--held-out-every 10 holds out no document (" + tmp.resolve("docword.txt")
                + " says D=5, so its document ids run from 1 to 5), so nothing would be evaluated (the default): there "
                + "is no held-out perplexity; give --held-out-every 0 to say so, or a smaller value"),
                org.sparkmc.spark.LoggedLines.of(LdaCommand.class, () -> code[0] = Main.run(byDefault)));
        assertEquals(ExitCode.OK, code[0]);
    }

    /** {@code lda} on this docword text and a three-word vocabulary, both written to the test's directory. */
    private String[] withCorpus(String docword, String... options) throws IOException {
        Path file = tmp.resolve("docword.txt");
        Files.writeString(file, docword);
        Path vocab = tmp.resolve("vocab.txt");
        Files.writeString(vocab, VOCAB3);
        return Stream.concat(Stream.of("lda", "--docword", file.toString(), "--vocab", vocab.toString(), "--out",
                tmp.resolve("out").toString()), Stream.of(options)).toArray(String[]::new);
    }

    /**
     * A vocabulary Hadoop wrote (with its hidden .crc beside it) and a user edited since: the bare "Checksum error"
     * now says what it means and what to do.
     */
    @Test
    void anEditedFileBesideAStaleChecksumSaysWhatToDo() throws IOException {
        String[] args = withCorpus("1\n3\n1\n1 1 2\n");
        Path vocab = tmp.resolve("vocab.txt");
        org.apache.hadoop.fs.FileSystem local = org.apache.hadoop.fs.FileSystem.getLocal(
                new org.apache.hadoop.conf.Configuration());
        Files.delete(vocab);
        try (var out = local.create(new org.apache.hadoop.fs.Path(vocab.toString()))) {
            out.write(VOCAB3.getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Files.exists(tmp.resolve(".vocab.txt.crc")));
        Files.writeString(vocab, "alpha\nbetA\ngamma\n"); // edited by hand: the .crc is stale
        assertBadInput(tmp.resolve("out"), args, new String[] {"Checksum error", "the file does not match the hidden "
                + ".NAME.crc file Hadoop wrote beside it: a file edited since keeps a stale one, so delete the .crc "
                + "file"});
    }

    @Test
    void vocabularyShorterThanTheHeaderSays() throws IOException {
        assertBadInput(tmp.resolve("out"), withCorpus("1\n4\n1\n1 1 2\n"),
                new String[] {tmp.resolve("vocab.txt").toString()});
    }

    /** A header with no word counts is refused from the header, before Spark starts (it took about 12 s). */
    @Test
    void aHeaderWithoutWordCountsIsAnEmptyCorpus() throws IOException {
        assertBadInput(tmp.resolve("out"), withCorpus("1\n3\n0\n"), new String[] {"docword.txt: the header says NNZ=0 "
                + "(no word counts): the corpus has no tokens"});
    }

    @Test
    void textWithoutWordsIsAnEmptyCorpus() throws IOException {
        Path text = tmp.resolve("empty.txt");
        Files.writeString(text, "\n  \nthe and of\n");
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", text.toString(), "--min-df", "1",
            "--out", tmp.resolve("out").toString()}, new String[] {text.toString(), "no word"});
    }

    @Test
    void textDirectoryWithoutFilesOrMissing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("texts"));
        Files.writeString(dir.resolve("_SUCCESS"), "");
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", dir.toString(), "--out",
            tmp.resolve("out").toString()}, new String[] {"text corpus " + dir + " holds no file"});
        Path missing = tmp.resolve("missing");
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", missing.toString(), "--out",
            tmp.resolve("out").toString()}, new String[] {"no such file or directory: " + missing});
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", dir + "/*.txt", "--out",
            tmp.resolve("out").toString()}, new String[] {"no such file or directory: " + dir + "/*.txt"});
        Path hidden = Files.writeString(dir.resolve("_corpus.txt"), "a document\n");
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", dir + "/*.txt", "--out", // hidden only
            tmp.resolve("out").toString()}, new String[] {"no such file or directory: " + dir + "/*.txt (names "
                + "starting with _ or . are left out)"});
        assertBadInput(tmp.resolve("out"), new String[] {"lda", "--text", hidden.toString(), "--out",
            tmp.resolve("out").toString()}, new String[] {"_corpus.txt", "hidden from Hadoop's input formats"});
    }

    static String assertBadInput(Path out, String[] args, String[] expected) {
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        for (String e : expected) {
            assertTrue(r.err().contains(e), "expected '" + e + "' in: " + r.err());
        }
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
        return r.err();
    }
}
