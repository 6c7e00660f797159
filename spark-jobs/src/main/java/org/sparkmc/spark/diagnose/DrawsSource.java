package org.sparkmc.spark.diagnose;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.ChainSeries;
import org.sparkmc.spark.io.CmdStanCsv;
import org.sparkmc.spark.io.DrawFiles;
import org.sparkmc.spark.io.ParquetDraws;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.TextFiles;
import org.sparkmc.spark.io.UnreadableFiles;
import org.sparkmc.spark.io.UserPaths;
import scala.Tuple2;

/**
 * Draws to diagnose, loaded as a distributed dataset of per-(parameter, chain) series: Parquet in the layout the
 * jobs write (chain, draw, one column per parameter), CmdStan CSV files (one chain per file, chains numbered in
 * file-name order) or plain {@code chain,draw,…} CSV files. Text files are parsed one task per file; a parse error
 * is returned, not thrown, so it reaches the user as one message naming file and line.
 */
public record DrawsSource(String format, List<String> names, JavaRDD<ChainSeries> series, int chains,
        int drawsPerChain) {
    private static final Logger LOG = LoggerFactory.getLogger(DrawsSource.class);

    /** The draws a chains job writes into its output directory. */
    static final String CHAINS_DRAWS = "draws.parquet";

    /**
     * The input files, and the format they are read in; for a text format also its .csv files, in chain order, and
     * the parameters the first one's header names (empty for Parquet).
     */
    public record Located(List<FileStatus> matches, String format, List<String> textFiles, List<String> names) {
    }

    /**
     * Finds the inputs' files and their format ({@code auto}: from the files), and a text format's files and header,
     * with Hadoop's file system alone, so that a missing input, an input given twice, an unknown format, a directory
     * without draws, a file read as Parquet that is not, or a header that names no parameters is refused before Spark
     * starts.
     */
    public static Located locate(List<String> inputs, String format, Configuration hadoop) {
        Require.oneOf(format, List.of("auto", "parquet", "cmdstan", "csv"), "--format");
        List<FileStatus> matches = onceEach(chainsOutputs(expand(inputs, hadoop), format, hadoop));
        String told = format.equals("auto") ? detect(matches, hadoop) : format;
        if (told.equals("parquet")) {
            refuseWhatIsNotParquet(matches, hadoop, format.equals("auto"));
            refuseInputsWithOtherColumns(matches, hadoop);
            return new Located(matches, told, List.of(), List.of());
        }
        List<String> files = files(matches, hadoop);
        return new Located(matches, told, files, header(files.get(0), textFormat(told), hadoop));
    }

    /** Reads the located draws. */
    public static DrawsSource load(SparkSession spark, Located located) {
        if (located.format().equals("parquet")) {
            return parquet(spark, located.matches());
        }
        return text(JavaSparkContext.fromSparkContext(spark.sparkContext()), located.textFiles(),
                textFormat(located.format()), located.names());
    }

    private static DrawFiles.Format textFormat(String format) {
        return format.equals("cmdstan") ? DrawFiles.Format.CMDSTAN : DrawFiles.Format.CSV;
    }

    /**
     * The parameters the header of {@code file} names; sparkmc's chain,draw layout is refused as CmdStan CSV. A
     * chain,draw header's sampler columns ({@code …__} but lp__) are left out with a warning naming them, as a user's
     * column may end so; every CmdStan file has them.
     */
    private static List<String> header(String file, DrawFiles.Format format, Configuration hadoop) {
        if (format == DrawFiles.Format.CMDSTAN) {
            refuseChainDrawHeader(file, hadoop);
        } else {
            try (BufferedReader in = open(new Path(file), hadoop)) {
                List<String> sampler = DrawFiles.samplerColumns(file, in, format);
                if (!sampler.isEmpty()) {
                    LOG.warn("diagnose: {}: columns ending in __ are a sampler's, not parameters, left out: {} "
                            + "(Stan reserves the suffix; rename a parameter that ends so)", file,
                            String.join(", ", sampler));
                }
            } catch (IOException e) {
                throw new InvalidInputException("cannot read '" + file + "': " + e.getMessage(), e);
            }
        }
        try (BufferedReader in = open(new Path(file), hadoop)) {
            return DrawFiles.parameterNames(file, in, format);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read '" + file + "': " + e.getMessage(), e);
        }
    }

    /** A file or directory an input names, and that input as given. */
    private record Match(FileStatus status, String input) {
    }

    private static List<Match> expand(List<String> inputs, Configuration hadoop) {
        if (inputs.isEmpty()) {
            throw new InvalidInputException("no input given: name Parquet draws, CmdStan CSV files or a CSV file");
        }
        List<Match> all = new ArrayList<>();
        for (String input : inputs) {
            try {
                Path path = UserPaths.path("input", input);
                FileStatus[] found = StorageFailure.named(path.getFileSystem(hadoop), path, input);
                if (found.length == 0) {
                    throw new InvalidInputException("input '" + input + "' does not exist (no file matches"
                            + (UserPaths.isPattern(input) ? "; names starting with _ or . are left out)" : ")"));
                }
                Arrays.sort(found, Comparator.comparing(f -> f.getPath().toString()));
                for (FileStatus f : found) {
                    all.add(new Match(f, input));
                }
            } catch (IOException e) {
                throw unreadable(input, e);
            }
        }
        return all;
    }

    /**
     * A chains job's output directory (it holds {@code draws.parquet} beside summary.json and the rest) stands for
     * its draws.parquet; asked to read it as text, it is refused, naming what to pass instead.
     */
    private static List<Match> chainsOutputs(List<Match> matches, String format, Configuration hadoop) {
        List<Match> resolved = new ArrayList<>();
        for (Match given : matches) {
            FileStatus f = given.status();
            Path draws = new Path(f.getPath(), CHAINS_DRAWS);
            try {
                FileSystem fs = f.getPath().getFileSystem(hadoop);
                // Its summary.json too, so that another directory that merely holds a draws.parquet among other
                // Parquet inputs is read as a whole, as before.
                FileStatus drawsStatus = f.isDirectory() ? StorageFailure.statusIfAny(fs, draws) : null;
                Path summary = new Path(f.getPath(), "summary.json");
                if (drawsStatus == null || StorageFailure.statusIfAny(fs, summary) == null) {
                    resolved.add(given);
                } else if (format.equals("cmdstan") || format.equals("csv")) {
                    throw new InvalidInputException(f.getPath() + " is a chains job output: diagnose its "
                            + CHAINS_DRAWS + " (--format auto or parquet), or its cmdstan directory if the run wrote "
                            + "one (--cmdstan-csv)");
                } else {
                    resolved.add(new Match(drawsStatus, given.input()));
                }
            } catch (IOException e) {
                throw unreadable(f.getPath(), e);
            }
        }
        return resolved;
    }

    /**
     * The matches, each file or directory once: one given twice (by name, by a glob that also matches it, or as a
     * chains output and its draws.parquet) is refused before Spark reads its chains twice and finds them so.
     */
    private static List<FileStatus> onceEach(List<Match> matches) {
        Map<Path, String> givenAs = new HashMap<>();
        List<FileStatus> once = new ArrayList<>();
        for (Match m : matches) {
            String earlier = givenAs.putIfAbsent(m.status().getPath(), m.input());
            if (earlier != null) {
                throw new InvalidInputException("input " + m.status().getPath() + " is given twice ("
                        + (earlier.equals(m.input()) ? "as '" + m.input() + "' both times"
                            : "by '" + earlier + "' and by '" + m.input() + "'") + "); name each input once");
            }
            once.add(m.status());
        }
        return once;
    }

    /**
     * Parquet when an input is a .parquet file or a directory holding any, also in its subdirectories (Spark's
     * partitioned layout, {@code chain=1/part-….parquet}); otherwise from the first line of each text file, which must
     * agree: a CmdStan file among chain,draw files was read as one and refused as "parameters differ".
     */
    private static String detect(List<FileStatus> matches, Configuration hadoop) {
        for (FileStatus f : matches) {
            try {
                if (f.getPath().getName().endsWith(".parquet")
                        || f.isDirectory() && firstParquetFile(f.getPath().getFileSystem(hadoop), f) != null) {
                    return "parquet";
                }
            } catch (IOException e) { // not there any more, or not ours to list
                throw unreadable(f.getPath(), e);
            }
        }
        List<String> texts = files(matches, hadoop);
        DrawFiles.Format format = textFormatOf(texts.get(0), hadoop);
        for (String other : texts.subList(1, texts.size())) {
            DrawFiles.Format its = textFormatOf(other, hadoop);
            if (its != format) {
                throw new InvalidInputException("inputs of two formats: " + texts.get(0) + " is " + named(format)
                        + ", " + other + " is " + named(its) + "; diagnose reads one format a run (Parquet, CmdStan "
                        + "CSV or chain,draw CSV): give them to separate runs, or convert one");
            }
        }
        return format == DrawFiles.Format.CMDSTAN ? "cmdstan" : "csv";
    }

    /** A text file's format, from its first line. */
    private static DrawFiles.Format textFormatOf(String file, Configuration hadoop) {
        Path path = new Path(file);
        try (BufferedReader in = open(path, hadoop)) {
            return DrawFiles.detect(path.toString(), in.readLine());
        } catch (IOException e) { // the content's, or not there: the file system's own failures are StorageFailures
            throw new InvalidInputException("cannot read '" + path + "': " + e.getMessage(), e);
        }
    }

    private static String named(DrawFiles.Format format) {
        return format == DrawFiles.Format.CMDSTAN ? "CmdStan CSV" : "chain,draw CSV";
    }

    /**
     * Refuses, before Spark starts, a file read as Parquet that does not begin and end with Parquet's magic bytes,
     * and a directory read as Parquet that holds no file or such a file (Spark failed on them with a logged trace,
     * and on an empty directory with "unable to infer schema").
     */
    private static void refuseWhatIsNotParquet(List<FileStatus> matches, Configuration hadoop, boolean detected) {
        for (FileStatus f : matches) {
            try {
                FileSystem fs = f.getPath().getFileSystem(hadoop);
                if (f.isDirectory()) {
                    refuseADirectoryThatIsNotParquet(fs, f);
                    continue;
                }
                String why = UnreadableFiles.notParquet(fs, f);
                if (why != null) {
                    FileStatus parquet = !detected ? null : matches.stream().filter(m -> m != f
                            && (m.isDirectory() || m.getPath().getName().endsWith(".parquet"))).findFirst()
                            .orElse(null);
                    if (parquet != null && !f.getPath().getName().endsWith(".parquet")) { // --format would not help
                        throw new InvalidInputException("inputs of two formats: " + parquet.getPath() + " is Parquet "
                                + "draws, " + f.getPath() + " is not; diagnose reads one format a run (Parquet, "
                                + "CmdStan CSV or chain,draw CSV): give them to separate runs, or convert one");
                    }
                    throw new InvalidInputException("input " + f.getPath() + " is not readable Parquet: " + why
                            + "; for CSV draws give --format cmdstan or csv"
                            + (f.getPath().getName().endsWith(".parquet") ? " (or name the file .csv)" : ""));
                }
            } catch (IOException e) { // not there any more, or not ours to read
                throw unreadable(f.getPath(), e);
            }
        }
    }

    /** Refuses a directory of Parquet draws without a file Spark would read, or with one that is not Parquet. */
    private static void refuseADirectoryThatIsNotParquet(FileSystem fs, FileStatus dir) throws IOException {
        List<FileStatus> files = new ArrayList<>();
        visibleFiles(fs, dir, files);
        if (files.isEmpty()) {
            throw new InvalidInputException("input " + dir.getPath() + " holds no file to read as Parquet draws "
                    + "(names starting with _ or . are left out, such as _SUCCESS): is the run that writes it done?");
        }
        for (FileStatus file : files) {
            String why = UnreadableFiles.notParquet(fs, file);
            if (why != null) {
                throw new InvalidInputException("input " + dir.getPath() + ": " + file.getPath().getName()
                        + " is not readable Parquet: " + why + "; Spark reads every file of a directory of Parquet "
                        + "draws (names starting with _ or . aside): for CSV draws give --format cmdstan or csv");
            }
        }
    }

    /** The files under {@code dir} that Spark's Parquet reader reads: all, at any depth, but hidden names. */
    private static void visibleFiles(FileSystem fs, FileStatus dir, List<FileStatus> into) throws IOException {
        FileStatus[] entries = StorageFailure.list(fs, dir.getPath());
        Arrays.sort(entries, Comparator.comparing(f -> f.getPath().getName()));
        for (FileStatus f : entries) {
            String name = f.getPath().getName();
            if (name.startsWith("_") || name.startsWith(".")) {
                continue;
            }
            if (f.isDirectory()) {
                visibleFiles(fs, f, into);
            } else {
                into.add(f);
            }
        }
    }

    /**
     * Refuses, before Spark starts, Parquet inputs whose draw columns ({@link #readAsDraws}) differ, from the footer of
     * each input's first file: Spark takes one file's schema for all, so a parameter that only some inputs hold was
     * left out without a word (CSV inputs are refused so: their parameters must be the first file's).
     */
    private static void refuseInputsWithOtherColumns(List<FileStatus> matches, Configuration hadoop) {
        Path firstInput = null;
        List<String> firstColumns = null;
        for (FileStatus input : matches) {
            try {
                FileSystem fs = input.getPath().getFileSystem(hadoop);
                FileStatus file = firstParquetFile(fs, input);
                if (file == null) {
                    continue;
                }
                List<String> columns;
                try (ParquetFileReader reader = ParquetFileReader.open(StorageFailure.parquetFile(file, hadoop))) {
                    columns = reader.getFooter().getFileMetaData().getSchema().getFields().stream()
                            .filter(DrawsSource::readAsDraws).map(Type::getName).sorted().toList();
                } catch (StorageFailure e) {
                    throw e;
                } catch (IOException | RuntimeException e) { // begins and ends as Parquet, yet is not
                    throw UnreadableFiles.parquetFooter(file.getPath(), "for CSV draws use --format cmdstan or csv", e);
                }
                if (firstColumns == null) {
                    firstInput = input.getPath();
                    firstColumns = columns;
                } else if (!columns.equals(firstColumns)) {
                    List<String> lacks = new ArrayList<>(firstColumns);
                    lacks.removeAll(columns);
                    List<String> extra = new ArrayList<>(columns);
                    extra.removeAll(firstColumns);
                    throw new InvalidInputException("input " + input.getPath() + " (" + file.getPath().getName()
                            + ") has columns " + columns + " but the first input, " + firstInput + ", has "
                            + firstColumns + (lacks.isEmpty() ? "" : ": it lacks " + lacks)
                            + (extra.isEmpty() ? "" : (lacks.isEmpty() ? ": " : ", and ") + "it adds " + extra)
                            + "; every input needs the same parameters (Spark would read one input's columns only)");
                }
            } catch (IOException e) { // not there any more, or not ours to read
                throw unreadable(input.getPath(), e);
            }
        }
    }

    /**
     * Whether {@link #readParquet} reads a column of this footer type: chain, draw and the numeric columns other than
     * sampler columns ({@code …__} but lp__); a text label or pandas' {@code __index_level_0__} may differ.
     */
    private static boolean readAsDraws(Type column) {
        String name = column.getName();
        if (name.endsWith("__") && !name.equals("lp__") || !column.isPrimitive()) {
            return false;
        }
        return switch (column.asPrimitiveType().getPrimitiveTypeName()) {
            case INT32, INT64, FLOAT, DOUBLE -> true;
            case BINARY, FIXED_LEN_BYTE_ARRAY -> column.getLogicalTypeAnnotation()
                    instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
            default -> false;
        };
    }

    /**
     * A Parquet file itself, or the first .parquet file by name in a directory and its subdirectories (hidden names,
     * {@code _…} and {@code .…}, aside); or null.
     */
    private static FileStatus firstParquetFile(FileSystem fs, FileStatus input) throws IOException {
        if (input.isFile()) {
            return input;
        }
        FileStatus[] entries = StorageFailure.list(fs, input.getPath());
        Arrays.sort(entries, Comparator.comparing(f -> f.getPath().getName()));
        for (FileStatus f : entries) {
            FileStatus found = f.isDirectory() ? firstParquetFile(fs, f)
                    : f.getPath().getName().endsWith(".parquet") ? f : null;
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Refuses a directory's .csv files found below it ({@code deeper}), naming up to three. */
    private static void refuseDeeperCsv(Path dir, List<String> deeper) {
        if (deeper.isEmpty()) {
            return;
        }
        String shown = String.join(", ", deeper.subList(0, Math.min(3, deeper.size())))
                + (deeper.size() > 3 ? ", … (" + deeper.size() + " files)" : "");
        throw new InvalidInputException(dir + " holds .csv files in subdirectories too (" + shown + "); diagnose "
                + "reads a directory's own .csv files: name the others, or a glob such as '" + dir + "/*/*.csv', "
                + "to read them as chains too, or move them out");
    }

    /**
     * The .csv files of the inputs: a file as given; a directory's own .csv files, in name order (names starting with
     * _ or . left out). A directory with .csv files in a subdirectory is refused: left out, a chain that had not mixed
     * passed unseen; read, old copies beside the run's would be pooled with it as more chains.
     */
    private static List<String> files(List<FileStatus> matches, Configuration hadoop) {
        List<String> files = new ArrayList<>();
        for (FileStatus f : matches) {
            if (f.isDirectory()) {
                try {
                    List<FileStatus> visible = new ArrayList<>();
                    visibleFiles(f.getPath().getFileSystem(hadoop), f, visible);
                    String dir = f.getPath().toUri().getPath();
                    List<FileStatus> csv = visible.stream().filter(s -> s.getPath().getName().endsWith(".csv"))
                            .toList();
                    refuseDeeperCsv(f.getPath(), csv.stream().filter(s -> !s.getPath().getParent().toUri().getPath()
                            .equals(dir)).map(s -> s.getPath().toString()).sorted().toList());
                    csv.stream().map(s -> s.getPath().toString()).sorted().forEach(files::add); // none deeper
                } catch (IOException e) { // not there any more, or not ours to list
                    throw unreadable(f.getPath(), e);
                }
            } else {
                files.add(f.getPath().toString());
            }
        }
        if (files.isEmpty()) {
            throw new InvalidInputException("no .csv file in the inputs (" + matches.stream().map(f -> f.getPath()
                    .toString()).reduce((a, b) -> a + ", " + b).orElse("") + "); diagnose reads CmdStan or chain,draw "
                    + "CSV files named .csv (in a directory, names starting with _ or . are skipped), and Parquet "
                    + "draws: .parquet files, or directories holding them, also in subdirectories (--format auto or "
                    + "parquet)");
        }
        return files;
    }

    /** An input the file system refused or lost (its own failures are StorageFailures), as bad input. */
    private static InvalidInputException unreadable(Object input, IOException e) {
        return new InvalidInputException("cannot read input '" + input + "': " + StorageFailure.reason(e), e);
    }

    private static BufferedReader open(Path path, Configuration hadoop) throws IOException {
        return new BufferedReader(TextFiles.reader(path, hadoop));
    }

    private static DrawsSource text(JavaSparkContext sc, List<String> files, DrawFiles.Format format,
            List<String> names) {
        Configuration hadoop = sc.hadoopConfiguration();
        List<Tuple2<Integer, String>> numbered = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            numbered.add(new Tuple2<>(i + 1, files.get(i)));
        }
        SerializableConfiguration conf = new SerializableConfiguration(hadoop);
        List<String> expected = List.copyOf(names);
        JavaRDD<DrawFiles.Parsed> parsed = sc.parallelize(numbered, numbered.size()).map(file -> {
            try (BufferedReader in = open(new Path(file._2()), conf.value())) {
                return DrawFiles.parse(file._2(), in, format, expected, file._1());
            } catch (IOException e) {
                return new DrawFiles.Parsed(file._2() + ": cannot read: " + e.getMessage(), List.of(),
                        new TreeMap<>());
            }
        }).persist(StorageLevel.MEMORY_AND_DISK());
        sc.setJobDescription("diagnose: parse " + files.size() + " file(s)");
        List<Tuple2<String, Map<Integer, Integer>>> outcomes = parsed
                .map(p -> new Tuple2<>(p.error(), p.drawsPerChain())).collect();
        Map<Integer, Integer> counts = new TreeMap<>();
        Map<Integer, String> owner = new HashMap<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i)._1() != null) {
                parsed.unpersist();
                throw new InvalidInputException(outcomes.get(i)._1());
            }
            for (Map.Entry<Integer, Integer> c : outcomes.get(i)._2().entrySet()) {
                String previous = owner.put(c.getKey(), files.get(i));
                if (previous != null) {
                    throw new InvalidInputException("chain " + c.getKey() + " appears in both " + previous + " and "
                            + files.get(i));
                }
                counts.put(c.getKey(), c.getValue());
            }
        }
        int draws = checkEqualLengths(counts, owner);
        return new DrawsSource(format.name().toLowerCase(java.util.Locale.ROOT), names,
                parsed.flatMap(p -> p.series().iterator()), counts.size(), draws);
    }

    /**
     * Refuses sparkmc's own CSV layout read as CmdStan CSV. A CmdStan file is one chain, its header starting with
     * lp__ and the sampler columns; a header starting {@code chain,draw} (what auto-detection calls plain CSV) would
     * otherwise be read as one chain with parameters named chain and draw. Every other file must declare the same
     * parameters as the first, so checking the first file covers them all.
     */
    private static void refuseChainDrawHeader(String file, Configuration hadoop) {
        try (BufferedReader in = open(new Path(file), hadoop)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (DrawFiles.isChainDrawHeader(line)) {
                    throw new InvalidInputException(file + ":" + number + ": header starts 'chain,draw', so this "
                            + "is not CmdStan CSV (one chain per file, header starting lp__) but sparkmc's chain,draw "
                            + "CSV; use --format csv (or auto)");
                }
                return;
            }
        } catch (IOException e) {
            throw new InvalidInputException("cannot read '" + file + "': " + e.getMessage(), e);
        }
    }

    private static int checkEqualLengths(Map<Integer, Integer> counts, Map<Integer, String> where) {
        if (counts.size() < 2) {
            throw new InvalidInputException("found " + counts.size() + " chain; R-hat needs at least 2 chains");
        }
        Map.Entry<Integer, Integer> first = counts.entrySet().iterator().next();
        for (Map.Entry<Integer, Integer> c : counts.entrySet()) {
            if (!c.getValue().equals(first.getValue())) {
                throw new InvalidInputException("chain " + c.getKey() + (where.isEmpty() ? "" : " (" + where.get(c
                        .getKey()) + ")") + " has " + c.getValue() + " draws but chain " + first.getKey() + " has "
                        + first.getValue() + "; every chain needs the same number of draws");
            }
        }
        return first.getValue();
    }

    /** Parquet draws; a file Spark cannot read as Parquet (not Parquet, truncated, corrupt) is a bad input. */
    private static DrawsSource parquet(SparkSession spark, List<FileStatus> matches) {
        try {
            return readParquet(spark, matches);
        } catch (Exception e) { // Spark's SparkException is checked in Java but thrown undeclared from Scala
            InvalidInputException unreadable = unreadableParquet(e);
            if (unreadable != null) {
                throw unreadable;
            }
            throw e;
        }
    }

    /** The bad-input error for Spark's failure to read a file of Parquet draws ({@link UnreadableFiles}); or null. */
    static InvalidInputException unreadableParquet(Throwable failure) {
        return UnreadableFiles.of(failure, "Parquet", "for CSV draws use --format cmdstan or csv");
    }

    private static DrawsSource readParquet(SparkSession spark, List<FileStatus> matches) {
        String[] paths = matches.stream().map(f -> f.getPath().toString()).toArray(String[]::new);
        String source = String.join(", ", paths);
        Dataset<Row> draws = spark.read().parquet(paths);
        List<String> columns = Arrays.asList(draws.columns());
        if (!columns.contains("chain") || !columns.contains("draw")) {
            throw new InvalidInputException(source + ": Parquet draws need columns 'chain' and 'draw' besides the "
                    + "parameters; found " + columns);
        }
        List<String> names = new ArrayList<>();
        List<String> notNumbers = new ArrayList<>();
        Map<String, String> columnOf = new HashMap<>(); // parameter (CmdStan's a.1 as a[1]) -> its column
        for (StructField f : draws.schema().fields()) {
            boolean numbering = f.name().equals("chain") || f.name().equals("draw");
            if (numbering && !(f.dataType() instanceof IntegralType)) {
                throw new InvalidInputException(source + ": column '" + f.name() + "' must hold whole numbers, is "
                        + f.dataType().simpleString());
            }
            boolean sampler = f.name().endsWith("__") && !f.name().equals("lp__");
            if (numbering || sampler) {
                continue;
            }
            if (!(f.dataType() instanceof NumericType)) {
                notNumbers.add(f.name() + " (" + f.dataType().simpleString() + ")");
                continue;
            }
            if (f.name().isBlank()) {
                throw new InvalidInputException(source + ": a parameter column has no name");
            }
            String parameter = CmdStanCsv.bracketName(f.name());
            String first = columnOf.putIfAbsent(parameter, f.name());
            if (first != null) {
                throw new InvalidInputException(source + ": columns '" + first + "' and '" + f.name() + "' both name "
                        + "parameter '" + parameter + "'; each parameter needs its own column");
            }
            names.add(f.name());
        }
        if (names.isEmpty()) {
            throw new InvalidInputException(source + ": no numeric parameter column");
        }
        if (!notNumbers.isEmpty()) {
            LOG.warn("diagnose: {}: columns that hold no numbers are not parameters, left out: {}", source,
                    String.join(", ", notNumbers));
        }
        ParquetDraws.checkNumbersFitInts(draws);
        List<String> selected = new ArrayList<>(List.of("chain", "draw"));
        selected.addAll(names);
        Dataset<Row> typed = draws.selectExpr(selected.stream().map(c -> "CAST(" + ParquetDraws.quoted(c) + " AS "
                + (c.equals("chain") || c.equals("draw") ? "INT" : "DOUBLE") + ") AS " + ParquetDraws.quoted(c))
                .toArray(String[]::new));
        spark.sparkContext().setJobDescription("diagnose: check " + source);
        Map<Integer, Integer> counts = ParquetDraws.check(typed, names, source);
        Map<Integer, String> where = new HashMap<>();
        counts.keySet().forEach(chain -> where.put(chain, source));
        int perChain = checkEqualLengths(counts, where);
        int parameters = names.size();
        JavaRDD<ChainSeries> series = ParquetDraws.byChain(typed, parameters).flatMap(chain -> {
            List<ChainSeries> out = new ArrayList<>(parameters);
            for (int p = 0; p < parameters; p++) {
                out.add(new ChainSeries(p, chain._1(), 0, chain._2()[p]));
            }
            return out.iterator();
        });
        return new DrawsSource("parquet", names, series, counts.size(), perChain);
    }

    /** What was loaded, for log lines and reports. */
    public String description() {
        return format + ": " + chains + " chains × " + drawsPerChain + " draws × " + names.size() + " parameters";
    }
}
