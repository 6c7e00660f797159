package org.sparkmc.spark.lda;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.sum;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.spark.api.java.JavaHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.feature.CountVectorizer;
import org.apache.spark.ml.feature.CountVectorizerModel;
import org.apache.spark.ml.feature.RegexTokenizer;
import org.apache.spark.ml.feature.StopWordsRemover;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.spark.io.CheckedTextInputFormat;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.TextFiles;
import org.sparkmc.spark.io.UserPaths;
import scala.Tuple2;

/**
 * Reads the {@code lda} job's corpus through Hadoop's FileSystem into documents held on the executors
 * ({@link LdaDocuments}): a UCI bag-of-words pair ({@code docword.*.txt[.gz]} and {@code vocab.*.txt}), or plain text
 * with one document per line, tokenised and counted by Spark ML's own {@link RegexTokenizer},
 * {@link StopWordsRemover} and {@link CountVectorizer}. The driver reads only headers and the vocabulary.
 */
public final class LdaCorpusReader {
    /** A docword line's place ({@link #fileLines}): its file's index above these bits, its line number below. */
    private static final int LINE_BITS = 40;

    /**
     * How plain text becomes counts.
     *
     * @param vocabularySize the most frequent words kept (CountVectorizer's vocabSize)
     * @param minDocumentFrequency documents a word must occur in (CountVectorizer's minDF)
     * @param removeStopWords drop Spark's English stop words
     * @param tokenPattern the regular expression that separates tokens (RegexTokenizer, gaps)
     * @param minTokenLength shorter tokens are dropped
     */
    public record TextOptions(int vocabularySize, int minDocumentFrequency, boolean removeStopWords,
            String tokenPattern, int minTokenLength) {
        /** What separates tokens: anything but letters, digits and apostrophes between two of them. */
        private static final String GAPS = "(?:[^\\p{L}\\p{N}']|(?<![\\p{L}\\p{N}])'|'(?![\\p{L}\\p{N}]))+";

        public TextOptions {
            if (vocabularySize < 1 || minDocumentFrequency < 1 || minTokenLength < 1) {
                throw new InvalidInputException("vocabulary size, min document frequency and min token length must "
                        + "be ≥ 1, are " + vocabularySize + ", " + minDocumentFrequency + ", " + minTokenLength);
            }
        }

        /** 10,000 words seen in at least 2 documents, English stop words removed, tokens of letters/digits ≥ 2 long. */
        public static TextOptions defaults() {
            return of(10_000, 2, true);
        }

        /**
         * The given vocabulary cut and stop-word choice, tokens of letters/digits at least 2 long. An apostrophe
         * inside a word is part of it (don't); at a word's edge it is not, so 'apple' and apple are one word.
         */
        public static TextOptions of(int vocabularySize, int minDocumentFrequency, boolean removeStopWords) {
            return new TextOptions(vocabularySize, minDocumentFrequency, removeStopWords, GAPS, 2);
        }
    }

    private LdaCorpusReader() {
    }

    /**
     * The driver's part of a UCI corpus, read before Spark starts so that a bad header or vocabulary is refused at
     * once: the docword file's header and the vocabulary it promises.
     *
     * @param docword the docword file as the user gave it
     * @param files the files whose lines, in this order, make the docword file: the file itself, or a directory's
     *     files (as {@code sparkmc generate-lda} writes it: a header file, then Spark's part files)
     * @param oneFile the docword names its one file itself (not a directory or a pattern): messages name it as the
     *     user gave it; else they name the file of {@code files} they are about and the line in that file
     * @param header its three header lines
     * @param words the vocabulary, word id − 1 to word
     */
    public record UciHead(String docword, Path[] files, boolean oneFile, UciBagOfWords.Header header,
            String[] words) {
    }

    /**
     * A UCI docword file (gzipped or not) and its vocabulary. The driver reads the header and the vocabulary; the
     * body is read, checked line by line (file and line number in every error) and grouped into documents on the
     * executors.
     */
    public static LdaCorpus readUci(JavaSparkContext sc, String docword, String vocab) {
        return readUci(sc, readUciHead(docword, vocab, sc.hadoopConfiguration()));
    }

    /**
     * Reads a docword file's header and its vocabulary through Hadoop's FileSystem. The docword may be a directory:
     * its files (but hidden ones starting with {@code _} or {@code .}) in path order make the docword file, and the
     * first of them holds the header.
     *
     * @throws InvalidInputException naming the file (and line) when either is missing, unreadable or malformed
     */
    public static UciHead readUciHead(String docword, String vocab, Configuration conf) {
        Input input = textFiles("--docword", "docword", docword, conf);
        Path[] files = input.files();
        UciBagOfWords.Header header;
        try (Reader in = TextFiles.reader(files[0], conf)) {
            header = UciBagOfWords.readHeader(in, input.oneFile() ? docword : files[0].toString());
        } catch (FileNotFoundException e) {
            throw new InvalidInputException("no such file: " + docword, e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + docword + ": " + StorageFailure.reason(e), e);
        }
        String[] words;
        try (Reader in = TextFiles.reader(UserPaths.path("--vocab", vocab), conf)) {
            words = UciBagOfWords.readVocabulary(in, vocab, header.vocabularySize());
        } catch (FileNotFoundException e) {
            throw new InvalidInputException("no such file: " + vocab, e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + vocab + ": " + StorageFailure.reason(e), e);
        }
        if (header.lines() == 0) {
            throw new InvalidInputException(docword + ": the header says NNZ=0 (no word counts): the corpus has no "
                    + "tokens");
        }
        return new UciHead(docword, files, input.oneFile(), header, words);
    }

    /** The corpus whose header and vocabulary are {@code head}: its body read and grouped on the executors. */
    public static LdaCorpus readUci(JavaSparkContext sc, UciHead head) {
        String docword = head.docword();
        UciBagOfWords.Header header = head.header();
        String[] words = head.words();
        long tokenLimit = documentTokenLimit(sc);
        FileLines read = fileLines(sc, head.files(), docword, sc.defaultMinPartitions());
        String[] names = head.oneFile() ? new String[] {docword} : read.paths(); // the files, as messages name them
        // (place, line) of the body's non-blank lines: the first file's lines 4, 5, ..., then all of the others'
        JavaRDD<Tuple2<Long, String>> body = read.lines()
                .filter(t -> (file(t._1()) > 0 || line(t._1()) > 3) && !t._2().isBlank());
        JavaPairRDD<Integer, int[]> documents = body.mapToPair(t -> {
            long[] f = UciBagOfWords.bodyLine(t._2(), names[file(t._1())], line(t._1()), header);
            return new Tuple2<>((int) f[0], new long[] {t._1(), f[1] - 1, f[2]});
        }).groupByKey().mapToPair(t -> new Tuple2<>(t._1(), expand(t._1(), t._2(), names, tokenLimit)));
        LdaDocuments docs;
        try {
            docs = LdaDocuments.of(documents, header.vocabularySize());
        } catch (RuntimeException e) {
            throw firstBadLine(body, names, header, e);
        }
        long lines = body.count();
        if (lines > header.lines()) {
            long at = body.zipWithIndex().filter(t -> t._2() == header.lines()).first()._1()._1();
            throw new InvalidInputException(at(names, at) + ": more body lines than the header's NNZ="
                    + header.lines());
        }
        if (lines < header.lines()) {
            long[] counts = read.lineCounts();
            int last = counts.length - 1;
            while (last > 0 && counts[last] == 0) {
                last--; // an empty part file
            }
            throw new InvalidInputException(docword + ": the header says NNZ=" + header.lines() + " lines but the body "
                    + "has " + lines + " (after line " + counts[last] + (head.oneFile() ? "" : " of " + names[last])
                    + ")");
        }
        if (docs.numTokens() == 0) {
            throw new InvalidInputException(docword + ": the corpus has no tokens");
        }
        return new LdaCorpus(docs, words, docword, header.documents() - docs.numDocuments());
    }

    /**
     * The error of the docword body's first bad line, in file and line order: the task that failed first names
     * whichever bad line it met (line 14926 where 9590 came first). Run only once a bad line has failed the read;
     * {@code failure} itself when no line is bad (it failed for another reason).
     */
    private static RuntimeException firstBadLine(JavaRDD<Tuple2<Long, String>> body, String[] names,
            UciBagOfWords.Header header, RuntimeException failure) {
        boolean badLine = false;
        for (Throwable t = failure; t != null && !badLine; t = t.getCause()) {
            badLine = t instanceof InvalidInputException;
        }
        if (!badLine) {
            return failure;
        }
        Tuple2<Long, String> first = body.filter(t -> {
            try {
                UciBagOfWords.bodyLine(t._2(), "", 0, header);
                return false;
            } catch (InvalidInputException e) {
                return true;
            }
        }).fold(null, (a, b) -> a == null ? b : b == null || a._1() <= b._1() ? a : b); // one pass; null if none
        if (first == null) {
            return failure;
        }
        try {
            UciBagOfWords.bodyLine(first._2(), names[file(first._1())], line(first._1()), header);
        } catch (InvalidInputException e) {
            return e;
        }
        return failure;
    }

    /**
     * A document's (place, word, count) entries as its word ids, each repeated count times, in file order; a place
     * ({@link #fileLines}) names its file by {@code names}.
     *
     * @throws InvalidInputException if the document has more than {@code tokenLimit} tokens, or if a word has two
     *     lines (a UCI docword file lists each pair once, as the NNZ of a
     *     sparse matrix: a repeated pair is a concatenated or damaged file, whose counts would silently add up)
     */
    private static int[] expand(int docId, Iterable<long[]> entries, String[] names, long tokenLimit) {
        List<long[]> sorted = new ArrayList<>();
        entries.forEach(sorted::add);
        sorted.sort(Comparator.<long[]>comparingLong(e -> e[1]).thenComparingLong(e -> e[0]));
        for (int i = 1; i < sorted.size(); i++) {
            long[] a = sorted.get(i - 1);
            long[] b = sorted.get(i);
            if (a[1] == b[1]) {
                String lines = file(a[0]) == file(b[0])
                        ? names[file(a[0])] + " lines " + line(a[0]) + " and " + line(b[0])
                        : at(names, a[0]) + " and " + at(names, b[0]);
                throw new InvalidInputException(lines + ": docID " + docId
                        + " and wordID " + (b[1] + 1) + " twice (counts " + a[2] + " and " + b[2] + "); a docword file "
                        + "lists each (docID, wordID) pair once: merge the two lines into one with the summed count");
            }
        }
        sorted.sort((a, b) -> Long.compare(a[0], b[0]));
        long n = 0;
        for (long[] e : sorted) {
            n += e[2];
            if (n > tokenLimit) {
                throw new InvalidInputException(at(names, e[0]) + ": count " + e[2] + " brings docID " + docId
                        + " to " + n + " tokens, more than the " + tokenLimit + " one document may hold here: its word"
                        + " ids need " + mebibytes(4 * n) + " MiB on an executor, which may give a document "
                        + mebibytes(4 * tokenLimit) + " MiB (a quarter of its heap, at most 2^31 - 8 tokens); raise "
                        + "spark.executor.memory (in local mode the driver's -Xmx, SPARKMC_JAVA_OPTS), or check the count");
            }
        }
        int[] words = new int[(int) n];
        int at = 0;
        for (long[] e : sorted) {
            Arrays.fill(words, at, at + (int) e[2], (int) e[1]);
            at += (int) e[2];
        }
        return words;
    }

    /**
     * The most tokens one document may have: its word ids (4 bytes each) may take a quarter of an executor's heap
     * (local mode: the driver's), and no more than an array holds.
     */
    static long documentTokenLimit(JavaSparkContext sc) {
        long heap = sc.isLocal() ? Runtime.getRuntime().maxMemory()
                : sc.getConf().getSizeAsBytes("spark.executor.memory", "1g");
        return Math.min(Integer.MAX_VALUE - 8, heap / 16);
    }

    private static long mebibytes(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    /**
     * Plain text, one document per line: a file, the files directly in a directory (names starting with {@code _}
     * or {@code .} skipped), or the files a glob matches, read in path order; a document's id is its 1-based line
     * number over all files. Documents left empty after tokenising and the vocabulary cut are skipped and counted.
     * Ids and word ids do not depend on file sizes, splits or cores.
     */
    public static LdaCorpus readText(SparkSession spark, String path, TextOptions options) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        StructType schema = new StructType().add("id", DataTypes.LongType).add("text", DataTypes.StringType);
        Dataset<Row> docs = spark.createDataFrame(numberedLines(sc, path, sc.defaultMinPartitions())
                .map(t -> RowFactory.create(t._2() + 1, t._1())), schema);
        Dataset<Row> counted = tokenize(docs, options);
        String[] vocabulary = vocabulary(counted, options);
        if (vocabulary.length == 0) {
            throw new InvalidInputException(path + ": no word is left after tokenising (is the corpus empty, or "
                    + "min document frequency too high?)");
        }
        CountVectorizerModel model = new CountVectorizerModel(vocabulary).setInputCol("words").setOutputCol("counts");
        return fromVectors(model.transform(counted).select("id", "counts").javaRDD(), vocabulary, path);
    }

    /**
     * The lines of {@link #textFiles}, each with its 0-based index over all of them: files in path order, then lines
     * in file order, however the files are split (Spark SQL's text source reads the largest files first instead).
     */
    static JavaPairRDD<String, Long> numberedLines(JavaSparkContext sc, String path, int minPartitions) {
        return numberedLines(sc, textFiles("--text", "text corpus", path, sc.hadoopConfiguration()).files(),
                minPartitions);
    }

    /** The lines of {@code files} read by {@link CheckedTextInputFormat}, numbered as {@link #numberedLines}. */
    private static JavaPairRDD<String, Long> numberedLines(JavaSparkContext sc, Path[] files, int minPartitions) {
        JobConf conf = new JobConf(sc.hadoopConfiguration());
        FileInputFormat.setInputPaths(conf, files);
        return sc.hadoopRDD(conf, CheckedTextInputFormat.class, LongWritable.class, Text.class, minPartitions)
                .map(t -> t._2().toString()).zipWithIndex();
    }

    /**
     * Lines numbered in their own files.
     *
     * @param lines (place, line) of every line of the files, in file then line order: a place is the file's index
     *     above {@link #LINE_BITS} bits and the 1-based line number in that file below ({@link #file}, {@link #line})
     * @param paths each file's path by its index, as {@link CheckedTextInputFormat}'s own messages name it
     * @param lineCounts each file's number of lines
     */
    private record FileLines(JavaRDD<Tuple2<Long, String>> lines, String[] paths, long[] lineCounts) {
    }

    /**
     * The lines of {@code files} read by {@link CheckedTextInputFormat}, each numbered in its file as that format's
     * messages number it (Hadoop's lines, wherever the file is split): one pass counts each split's lines, as
     * zipWithIndex counts each partition's, and a split's lines are numbered on from the lines of its file's splits
     * before it. No line passes through the driver; the numbers do not depend on the splits or the cores.
     *
     * @param source what the files make, for a message
     * @throws InvalidInputException if there are more files, or lines in a file, than a place holds
     */
    private static FileLines fileLines(JavaSparkContext sc, Path[] files, String source, int minPartitions) {
        JobConf conf = new JobConf(sc.hadoopConfiguration());
        FileInputFormat.setInputPaths(conf, files);
        JavaHadoopRDD<LongWritable, Text> read = (JavaHadoopRDD<LongWritable, Text>) sc.hadoopRDD(conf,
                CheckedTextInputFormat.class, LongWritable.class, Text.class, minPartitions);
        List<Tuple2<String, Long>> splits = read.mapPartitionsWithInputSplit((split, it) -> {
            long n = 0;
            for (; it.hasNext(); it.next()) {
                n++;
            }
            return List.of(new Tuple2<>(((FileSplit) split).getPath().toString(), n)).iterator();
        }, true).collect();
        int[] fileOf = new int[splits.size()];
        long[] before = new long[splits.size()];
        List<String> paths = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (int p = 0; p < splits.size(); p++) { // a file's splits are consecutive, in file order
            if (p == 0 || !splits.get(p)._1().equals(splits.get(p - 1)._1())) {
                paths.add(splits.get(p)._1());
                counts.add(0L);
            }
            fileOf[p] = paths.size() - 1;
            before[p] = counts.get(fileOf[p]);
            counts.set(fileOf[p], before[p] + splits.get(p)._2());
        }
        if (paths.size() > 1 << (63 - LINE_BITS) || counts.stream().anyMatch(n -> n >= 1L << LINE_BITS)) {
            throw new InvalidInputException(source + ": " + paths.size() + " files, or a file of 2^" + LINE_BITS
                    + " lines or more: this reader numbers at most 2^" + (63 - LINE_BITS) + " files of fewer lines");
        }
        JavaRDD<Tuple2<Long, String>> lines = read.mapPartitionsWithIndex(
                (p, it) -> placed(it, ((long) fileOf[p] << LINE_BITS) + before[p]), true);
        return new FileLines(lines, paths.toArray(String[]::new),
                counts.stream().mapToLong(Long::longValue).toArray());
    }

    /** A split's lines, each with its place ({@link #fileLines}): the places after {@code before}, in turn. */
    private static Iterator<Tuple2<Long, String>> placed(Iterator<Tuple2<LongWritable, Text>> lines, long before) {
        return new Iterator<>() {
            private long place = before;

            @Override
            public boolean hasNext() {
                return lines.hasNext();
            }

            @Override
            public Tuple2<Long, String> next() {
                return new Tuple2<>(++place, lines.next()._2().toString());
            }
        };
    }

    /** The index of the file a place ({@link #fileLines}) is in. */
    private static int file(long place) {
        return (int) (place >>> LINE_BITS);
    }

    /** The 1-based line number a place ({@link #fileLines}) has in its file. */
    private static long line(long place) {
        return place & ((1L << LINE_BITS) - 1);
    }

    /** "FILE line N" for a place ({@link #fileLines}), its file named by {@code names}. */
    private static String at(String[] names, long place) {
        return names[file(place)] + " line " + line(place);
    }

    /**
     * Checks, before Spark starts, that a text corpus names files to read ({@link #readText} reads them).
     *
     * @throws InvalidInputException if nothing is there, or only hidden files
     */
    public static void checkText(String location, Configuration conf) {
        textFiles("--text", "text corpus", location, conf);
    }

    /**
     * The files an input names.
     *
     * @param files the files, sorted by path
     * @param oneFile the input names its one file itself, not a directory or a pattern
     */
    private record Input(Path[] files, boolean oneFile) {
    }

    /**
     * The files {@code location} names, sorted by path: a file, the files directly in a directory, or what a glob
     * pattern ({@code dir/*.txt}) matches (a matched directory contributing its files). Names starting with {@code _}
     * or {@code .} are skipped in directories and patterns, as Hadoop's input formats skip them, and refused when
     * named directly. {@code option} and {@code label} name the input in messages.
     */
    private static Input textFiles(String option, String label, String location, Configuration conf) {
        Path path = UserPaths.path(option, location);
        try {
            FileSystem fs = path.getFileSystem(conf);
            FileStatus[] matched = StorageFailure.named(fs, path, location);
            if (matched.length == 0) {
                // --docword keeps its message from before it took directories.
                throw new InvalidInputException((option.equals("--text") ? "no such file or directory: "
                        : "no such file: ") + location
                        + (UserPaths.isPattern(location) ? " (names starting with _ or . are left out)" : ""));
            }
            List<Path> files = new ArrayList<>();
            for (FileStatus m : matched) {
                if (m.isDirectory()) {
                    for (FileStatus f : StorageFailure.list(fs, m.getPath())) {
                        if (f.isDirectory()) { // its files were left out of the corpus without a word
                            throw UserPaths.holdingADirectory(label, m.getPath(), f.getPath().getName(),
                                    "put them directly in " + m.getPath().getName() + ", or name them with a pattern");
                        }
                        if (f.isFile()) {
                            files.add(f.getPath());
                        }
                    }
                } else if (!UserPaths.hidden(m.getPath())) {
                    files.add(m.getPath());
                } else { // named: a pattern's matches leave hidden names out
                    throw new InvalidInputException(label + " file " + m.getPath() + ": names starting with '_' or"
                            + " '.' are hidden from Hadoop's input formats; rename it");
                }
            }
            if (files.isEmpty()) {
                throw new InvalidInputException(label + " " + location + " holds no file");
            }
            return new Input(files.stream().sorted(Comparator.comparing(Path::toString)).toArray(Path[]::new),
                    !UserPaths.isPattern(location) && !matched[0].isDirectory());
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + label + " " + location + ": " + StorageFailure.reason(e),
                    e);
        } catch (IllegalArgumentException e) {
            InvalidInputException colon = UserPaths.unlistable(option, location, e);
            throw colon == null ? e : colon;
        }
    }

    /** Tokenised (and stop-word filtered) words of the {@code text} column, in a column {@code words}. */
    static Dataset<Row> tokenize(Dataset<Row> docs, TextOptions options) {
        RegexTokenizer tokenizer = new RegexTokenizer().setInputCol("text").setOutputCol("tokens")
                .setPattern(options.tokenPattern()).setGaps(true).setToLowercase(true)
                .setMinTokenLength(options.minTokenLength());
        Dataset<Row> tokens = tokenizer.transform(docs);
        if (!options.removeStopWords()) {
            return tokens.withColumnRenamed("tokens", "words");
        }
        return new StopWordsRemover().setInputCol("tokens").setOutputCol("words").transform(tokens);
    }

    /**
     * The vocabulary {@link CountVectorizer}'s fit chooses (vocabSize, minDF): the most frequent words among those
     * found in enough documents, most frequent first — but with ties broken by the word, where CountVectorizer breaks
     * them by partition order, which would make word ids (and the chain) depend on the number of cores.
     */
    static String[] vocabulary(Dataset<Row> words, TextOptions options) {
        return words.select(col("id"), explode(col("words")).as("word")).groupBy("id", "word").count()
                .groupBy("word").agg(sum("count").as("tf"), count("*").as("df"))
                .filter(col("df").geq(options.minDocumentFrequency()))
                .orderBy(col("tf").desc(), col("word").asc()).limit(options.vocabularySize())
                .select("word").as(Encoders.STRING()).collectAsList().toArray(String[]::new);
    }

    /**
     * A corpus from (id, term-count vector) rows, built on the executors: each document's tokens are its words in id
     * order, each repeated its count times; documents without a token are skipped and counted.
     */
    static LdaCorpus fromVectors(JavaRDD<Row> rows, String[] vocabulary, String source) {
        JavaPairRDD<Integer, int[]> all = rows.mapToPair(r -> new Tuple2<>(Math.toIntExact(r.getLong(0)),
                words(((Vector) r.get(1)).toSparse())));
        long total = all.count();
        LdaDocuments docs = LdaDocuments.of(all.filter(t -> t._2().length > 0), vocabulary.length);
        if (docs.numDocuments() == 0) {
            throw new InvalidInputException(source + ": the corpus is empty (no document has a word of the vocabulary)");
        }
        return new LdaCorpus(docs, vocabulary, source, Math.toIntExact(total - docs.numDocuments()));
    }

    /** A term-count vector as word ids, each repeated its count times, in id order. */
    private static int[] words(SparseVector counts) {
        int n = 0;
        for (double c : counts.values()) {
            n += (int) c;
        }
        int[] words = new int[n];
        int at = 0;
        for (int j = 0; j < counts.indices().length; j++) {
            int c = (int) counts.values()[j];
            Arrays.fill(words, at, at + c, counts.indices()[j]);
            at += c;
        }
        return words;
    }
}
