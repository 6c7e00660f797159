package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;

/**
 * {@link DrawsSource#locate} refuses text inputs it cannot read as draws with Hadoop's file system alone, so before
 * Spark starts, whether the format is told from the files or forced with --format; no Spark here.
 */
class DrawsSourceLocateTest {
    @TempDir
    Path tmp;

    private String refused(String input, String format) {
        return assertThrows(InvalidInputException.class,
                () -> DrawsSource.locate(List.of(input), format, new Configuration())).getMessage();
    }

    @Test
    void aForcedTextFormatIsCheckedBeforeSparkAsAutoIs() throws IOException {
        Path noCsv = Files.createDirectories(tmp.resolve("none"));
        Files.writeString(noCsv.resolve("notes.txt"), "x\n");
        for (String format : List.of("cmdstan", "csv")) {
            assertTrue(refused(noCsv.toString(), format).startsWith("no .csv file in the inputs"), format);
        }
        Path bare = Files.writeString(tmp.resolve("bare.csv"), "chain,draw\n1,1\n");
        assertTrue(refused(bare.toString(), "csv").endsWith(bare + ": the header names no parameter"));
        Path twice = Files.writeString(tmp.resolve("twice.csv"), "chain,draw,a,a\n1,1,0,0\n");
        assertTrue(refused(twice.toString(), "csv").contains("both name parameter 'a'"));
        Path plain = Files.writeString(tmp.resolve("plain.csv"), "chain,draw,a\n1,1,0.5\n");
        assertTrue(refused(plain.toString(), "cmdstan").contains("not CmdStan CSV"));
        DrawsSource.Located read = DrawsSource.locate(List.of(plain.toString()), "csv", new Configuration());
        assertEquals(List.of("a"), read.names());
        assertEquals(1, read.textFiles().size());
    }

    /** A CSV file forced as Parquet, or named .parquet, was refused only by Spark's read, with a logged trace. */
    @Test
    void aFileReadAsParquetThatIsNotIsRefusedBeforeSpark() throws IOException {
        Path plain = Files.writeString(tmp.resolve("draws.csv"), "chain,draw,a\n1,1,0.5\n");
        String forced = refused(plain.toString(), "parquet");
        assertTrue(forced.startsWith("input file:" + plain + " is not readable Parquet: it does not begin with "
                + "Parquet's bytes PAR1"), forced);
        Path named = Files.copy(plain, tmp.resolve("draws.parquet"));
        assertTrue(refused(named.toString(), "auto").endsWith("for CSV draws give --format cmdstan or csv (or name the "
                + "file .csv)"), refused(named.toString(), "auto"));
    }

    /**
     * Directories read as Parquet that Spark could not read: empty, only _SUCCESS, text files, or a file cut short.
     * They exited 1 with Spark's 144-line "unable to infer schema" trace, or 2 after a logged trace, after Spark
     * started; now locate refuses them.
     */
    @Test
    void aDirectoryReadAsParquetThatHoldsNoneIsRefusedBeforeSpark() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertTrue(refused(empty.toString(), "parquet").endsWith("holds no file to read as Parquet draws (names "
                + "starting with _ or . are left out, such as _SUCCESS): is the run that writes it done?"));
        Path done = Files.createDirectories(tmp.resolve("done"));
        Files.writeString(done.resolve("_SUCCESS"), "");
        assertTrue(refused(done.toString(), "parquet").contains("holds no file to read as Parquet draws"));
        Path texts = Files.createDirectories(tmp.resolve("texts"));
        Files.writeString(texts.resolve("c1.csv"), "chain,draw,a\n1,1,0.5\n");
        assertTrue(refused(texts.toString(), "parquet").contains(": c1.csv is not readable Parquet: it does not "
                + "begin with Parquet's bytes PAR1; Spark reads every file"), refused(texts.toString(), "parquet"));
        Path cut = Files.createDirectories(tmp.resolve("cut"));
        Files.write(cut.resolve("part-0.parquet"), "PAR1 and then the copy stopped".getBytes());
        assertTrue(refused(cut.toString(), "auto").contains("part-0.parquet is not readable Parquet: it is cut short: "
                + "it does not end with Parquet's bytes PAR1"), refused(cut.toString(), "auto"));
        Path garbled = Files.write(tmp.resolve("garbled.parquet"), "PAR1 not a footer at all, PAR1".getBytes());
        assertTrue(refused(garbled.toString(), "auto").contains("garbled.parquet is not readable Parquet: its footer "
                + "cannot be read"), refused(garbled.toString(), "auto"));
    }

    /** The same file twice was refused only after Spark had read both ("chain 1 appears in both X and X"). */
    @Test
    void anInputGivenTwiceIsRefusedBeforeSpark() throws IOException {
        Path c1 = Files.writeString(tmp.resolve("c1.csv"), "chain,draw,a\n1,1,0.5\n");
        Files.writeString(tmp.resolve("c2.csv"), "chain,draw,a\n2,1,0.5\n");
        String same = assertThrows(InvalidInputException.class, () -> DrawsSource.locate(
                List.of(c1.toString(), c1.toString()), "auto", new Configuration())).getMessage();
        assertTrue(same.contains("c1.csv is given twice (as '" + c1 + "' both times)"), same);
        String glob = assertThrows(InvalidInputException.class, () -> DrawsSource.locate(
                List.of(tmp.resolve("c*.csv").toString(), c1.toString()), "auto", new Configuration())).getMessage();
        assertTrue(glob.contains("c1.csv is given twice (by '" + tmp.resolve("c*.csv") + "' and by '" + c1 + "')"),
                glob);
    }

    /**
     * A directory with CSV chains in a subdirectory is refused, naming them: they were left out without a word (a
     * chain that had not mixed there passed --require-convergence unseen), and read they could be old copies pooled
     * with the run as more chains. A glob reads them; hidden directories stay skipped.
     */
    @Test
    void aDirectoryWithCsvFilesInASubdirectoryIsRefused() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("sub2"));
        Path more = Files.createDirectories(dir.resolve("more"));
        Path hidden = Files.createDirectories(dir.resolve("_hidden"));
        Files.writeString(dir.resolve("c1.csv"), "chain,draw,a\n1,1,0.5\n");
        Files.writeString(dir.resolve("c2.csv"), "chain,draw,a\n2,1,0.5\n");
        Files.writeString(more.resolve("notes.txt"), "not draws\n");
        Files.writeString(hidden.resolve("c9.csv"), "chain,draw,a\n9,1,0.5\n");
        DrawsSource.Located read = DrawsSource.locate(List.of(dir.toString()), "auto", new Configuration());
        assertEquals(List.of("c1.csv", "c2.csv"), read.textFiles().stream()
                .map(f -> f.substring(f.indexOf("sub2/") + "sub2/".length())).toList());

        Files.writeString(more.resolve("c3.csv"), "chain,draw,a\n3,1,0.5\n");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> DrawsSource.locate(List.of(dir.toString()), "auto", new Configuration()));
        assertTrue(e.getMessage().contains(" holds .csv files in subdirectories too (") && e.getMessage().contains(
                "more/c3.csv); diagnose reads a directory's own .csv files: name the others, or a glob such as '"),
                e.getMessage());
        read = DrawsSource.locate(List.of(dir + "/*.csv", dir + "/more/*.csv"), "auto", new Configuration());
        assertEquals(3, read.textFiles().size(), read.textFiles().toString());
    }

    /**
     * Columns ending in __ in a chain,draw CSV are left out as in Parquet and CmdStan CSV (Stan reserves the suffix
     * for its sampler's columns), but now with a warning naming them: energy__ went without a word.
     */
    @Test
    void samplerColumnsOfAChainDrawCsvAreLeftOutWithAWarning() throws Exception {
        Path dunder = Files.writeString(tmp.resolve("dunder.csv"), "chain,draw,energy__,lp__,a\n1,1,3,-1,0.5\n");
        List<String> warnings = org.sparkmc.spark.LoggedLines.of(DrawsSource.class,
                org.apache.logging.log4j.Level.WARN, () -> {
                    assertEquals(List.of("lp__", "a"), DrawsSource.locate(List.of(dunder.toString()), "auto",
                            new Configuration()).names());
                    return null;
                });
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(dunder + ": columns ending in __ are a sampler's, not parameters, left "
                + "out: energy__"), warnings.get(0));
    }

    /**
     * A chain,draw CSV file and a CmdStan file together are refused as two formats, as Parquet and CSV are: the
     * format was told from the first file alone, and the CmdStan file then said its parameters differ.
     */
    @Test
    void chainDrawCsvAndCmdStanCsvTogetherAreRefusedAsTwoFormats() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("mixed"));
        Path plain = Files.writeString(dir.resolve("a.csv"), "chain,draw,a\n1,1,0.5\n");
        Path stan = Files.writeString(dir.resolve("b.csv"), "# model = bern\nlp__,theta\n-1,0.5\n");
        String message = refused(dir.toString(), "auto");
        assertTrue(message.startsWith("inputs of two formats: ") && message.contains(plain + " is chain,draw CSV, ")
                && message.endsWith(stan + " is CmdStan CSV; diagnose reads one format a run (Parquet, CmdStan CSV "
                + "or chain,draw CSV): give them to separate runs, or convert one"), message);
    }

    /** Spaces after the commas of a chain,draw header are dropped, as around its other fields (it was refused). */
    @Test
    void aChainDrawHeaderWithSpacesAfterItsCommasIsRead() throws IOException {
        Path spaced = Files.writeString(tmp.resolve("spaced.csv"), "chain, draw, a\n1, 1, 0.5\n");
        DrawsSource.Located read = DrawsSource.locate(List.of(spaced.toString()), "auto", new Configuration());
        assertEquals("csv", read.format());
        assertEquals(List.of("a"), read.names());
    }
}
