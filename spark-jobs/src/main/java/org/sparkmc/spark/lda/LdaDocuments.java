package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.random.RandomStreams;
import scala.Tuple2;

/**
 * A corpus held on the executors: every non-empty document's word ids keyed by its id, and on the driver only the
 * index of ids and lengths (8 bytes per document), which cuts it into AD-LDA blocks exactly as {@link Corpus#blocks}
 * cuts the same documents in id order. The tokens never pass through the driver.
 */
public final class LdaDocuments {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private final JavaPairRDD<Integer, int[]> documents;
    private final int[] ids;
    private final int[] lengths;
    private final int vocabularySize;
    private final long contentHash;

    private LdaDocuments(JavaPairRDD<Integer, int[]> documents, int[] ids, int[] lengths, int vocabularySize,
            long contentHash) {
        this.documents = documents;
        this.ids = ids;
        this.lengths = lengths;
        this.vocabularySize = vocabularySize;
        this.contentHash = contentHash;
    }

    /**
     * Documents (id → word ids in [0, W), non-empty, ids distinct); persists them (memory, then disk), so the input
     * is parsed once for the index and the blocks, and collects their index and {@link #contentHash()} to the driver
     * in one pass. {@link #release()} frees them once the blocks are built.
     *
     * @throws IllegalArgumentException if an id repeats
     */
    public static LdaDocuments of(JavaPairRDD<Integer, int[]> documents, int vocabularySize) {
        documents.persist(StorageLevel.MEMORY_AND_DISK());
        List<Tuple2<long[], Long>> parts = documents.mapPartitions(LdaDocuments::indexPart).collect();
        int n = 0;
        long hash = 0;
        for (Tuple2<long[], Long> p : parts) {
            n += p._1().length;
            hash += p._2();
        }
        long[] index = new long[n];
        int at = 0;
        for (Tuple2<long[], Long> p : parts) {
            System.arraycopy(p._1(), 0, index, at, p._1().length);
            at += p._1().length;
        }
        Arrays.sort(index); // by id: the id is in the high half
        int[] ids = new int[n];
        int[] lengths = new int[n];
        for (int d = 0; d < n; d++) {
            ids[d] = (int) (index[d] >> 32);
            lengths[d] = (int) index[d];
            if (d > 0 && ids[d] == ids[d - 1]) {
                throw new IllegalArgumentException("document id " + ids[d] + " occurs twice");
            }
        }
        return new LdaDocuments(documents, ids, lengths, vocabularySize, hash);
    }

    /** A partition's documents as (id, length) packed in longs, with the sum of their {@link #documentHash}es. */
    private static Iterator<Tuple2<long[], Long>> indexPart(Iterator<Tuple2<Integer, int[]>> docs) {
        long[] packed = new long[16];
        int n = 0;
        long hash = 0;
        while (docs.hasNext()) {
            Tuple2<Integer, int[]> doc = docs.next();
            if (n == packed.length) {
                packed = Arrays.copyOf(packed, 2 * n);
            }
            packed[n++] = (long) doc._1() << 32 | doc._2().length;
            hash += documentHash(doc._1(), doc._2());
        }
        return List.of(new Tuple2<>(Arrays.copyOf(packed, n), hash)).iterator();
    }

    /** A document's id, then its word ids in order, through SplitMix64's mix. */
    static long documentHash(int id, int[] words) {
        long h = RandomStreams.mix(id + GOLDEN_GAMMA);
        for (int w : words) {
            h = RandomStreams.mix((h + GOLDEN_GAMMA) ^ w);
        }
        return RandomStreams.mix(h + words.length);
    }

    /** A driver-side corpus as documents on the executors (for small corpora and tests). */
    public static LdaDocuments parallelize(JavaSparkContext sc, Corpus corpus, int partitions) {
        List<Tuple2<Integer, int[]>> docs = new ArrayList<>(corpus.numDocuments());
        for (int d = 0; d < corpus.numDocuments(); d++) {
            docs.add(new Tuple2<>(corpus.docId(d), Arrays.copyOfRange(corpus.words(), corpus.docStart(d),
                    corpus.docEnd(d))));
        }
        return of(sc.parallelizePairs(docs, Math.max(1, partitions)), corpus.vocabularySize());
    }

    /**
     * Drops the persisted documents; call it on the set that was read (its subsets share that storage). They are
     * re-read from the input if needed again.
     */
    public void release() {
        documents.unpersist(false);
    }

    public int numDocuments() {
        return ids.length;
    }

    public long numTokens() {
        long n = 0;
        for (int l : lengths) {
            n += l;
        }
        return n;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    /**
     * A 64-bit hash of the documents as read: the sum of a hash of each document's id and word ids (in order, as
     * the sampler sees them), so it depends on the content only, not on how the input was split or partitioned. A
     * subset ({@link #heldOut}, {@link #training}) keeps the hash of the documents it was cut from.
     */
    public long contentHash() {
        return contentHash;
    }

    /** How many tokens of each word the documents hold (length W), summed on the executors. */
    public int[] wordFrequencies() {
        int w = vocabularySize;
        return documents.values().mapPartitions(part -> {
            int[] f = new int[w];
            part.forEachRemaining(doc -> {
                for (int v : doc) {
                    f[v]++;
                }
            });
            return List.of(f).iterator();
        }).treeReduce((a, b) -> {
            int[] sum = a.clone();
            for (int v = 0; v < sum.length; v++) {
                sum[v] += b[v];
            }
            return sum;
        });
    }

    /** The held-out documents: those whose id is a multiple of {@code every} (none when every ≤ 0). */
    public LdaDocuments heldOut(int every) {
        return every <= 0 ? multiplesOf(1, false) : multiplesOf(every, true);
    }

    /** The training documents: all but {@link #heldOut(int)}'s. */
    public LdaDocuments training(int every) {
        return every <= 0 ? this : multiplesOf(every, false);
    }

    /** The documents whose id is (or, with {@code keep} false, is not) a multiple of {@code every} (≥ 1). */
    private LdaDocuments multiplesOf(int every, boolean keep) {
        List<Integer> kept = new ArrayList<>();
        for (int d = 0; d < ids.length; d++) {
            if ((ids[d] % every == 0) == keep) {
                kept.add(d);
            }
        }
        int[] keptIds = new int[kept.size()];
        int[] keptLengths = new int[kept.size()];
        for (int i = 0; i < keptIds.length; i++) {
            keptIds[i] = ids[kept.get(i)];
            keptLengths[i] = lengths[kept.get(i)];
        }
        return new LdaDocuments(documents.filter(t -> (t._1() % every == 0) == keep), keptIds, keptLengths,
                vocabularySize, contentHash);
    }

    /**
     * The documents cut into {@code numBlocks} blocks of consecutive ids with near-equal document counts (the first
     * D mod B blocks get one more; a block may be empty), each built on the executors as a {@link Corpus} in id
     * order and keyed by its block id, hash-partitioned over {@code partitions}.
     */
    public JavaPairRDD<Integer, Corpus> blocks(int numBlocks, int partitions) {
        if (numBlocks < 1) {
            throw new IllegalArgumentException("number of blocks must be positive, is " + numBlocks);
        }
        int[] firstId = new int[numBlocks];
        int from = 0;
        for (int b = 0; b < numBlocks; b++) {
            int size = ids.length / numBlocks + (b < ids.length % numBlocks ? 1 : 0);
            firstId[b] = size == 0 ? Integer.MAX_VALUE : ids[from];
            from += size;
        }
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(documents.context());
        Broadcast<int[]> starts = sc.broadcast(firstId);
        int w = vocabularySize;
        HashPartitioner partitioner = new HashPartitioner(Math.max(1, partitions));
        List<Tuple2<Integer, Boolean>> all = new ArrayList<>(numBlocks);
        for (int b = 0; b < numBlocks; b++) {
            all.add(new Tuple2<>(b, true));
        }
        JavaPairRDD<Integer, Tuple2<Integer, int[]>> byBlock = documents.mapToPair(t ->
                new Tuple2<>(blockOf(starts.value(), t._1()), t));
        return sc.parallelizePairs(all, Math.max(1, partitions)).cogroup(byBlock, partitioner)
                .mapValues(t -> corpus(t._2(), w));
    }

    /**
     * The block whose first id is the largest one ≤ id: {@code firstId} is sorted, blocks without documents (at the
     * end) start at +∞.
     */
    private static int blockOf(int[] firstId, int id) {
        int lo = 0;
        int hi = firstId.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (firstId[mid] <= id) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The most tokens one block may hold: its arrays are indexed by int. */
    static final long MAX_BLOCK_TOKENS = Integer.MAX_VALUE - 8;

    private static Corpus corpus(Iterable<Tuple2<Integer, int[]>> docs, int vocabularySize) {
        return corpus(docs, vocabularySize, MAX_BLOCK_TOKENS);
    }

    /**
     * One block's documents as a corpus in id order.
     *
     * @param maxTokens the most tokens a block may hold (an int-indexed array; tests pass less)
     * @throws InvalidInputException naming the limit, the document reached and {@code --blocks}, beyond it
     */
    static Corpus corpus(Iterable<Tuple2<Integer, int[]>> docs, int vocabularySize, long maxTokens) {
        List<Tuple2<Integer, int[]>> sorted = new ArrayList<>();
        docs.forEach(sorted::add);
        sorted.sort((a, b) -> Integer.compare(a._1(), b._1()));
        int[] starts = new int[sorted.size() + 1];
        int[] docIds = new int[sorted.size()];
        long tokens = 0;
        for (int d = 0; d < docIds.length; d++) {
            docIds[d] = sorted.get(d)._1();
            tokens += sorted.get(d)._2().length;
            if (tokens > maxTokens) {
                throw new InvalidInputException(String.format(java.util.Locale.ROOT, "a document block holds more "
                        + "than %,d tokens (the most one block's arrays can index), reached at document %d of the "
                        + "block's %d; use more --blocks, so that the corpus' tokens divided by --blocks stay below "
                        + "that", maxTokens, docIds[d], docIds.length));
            }
            starts[d + 1] = (int) tokens;
        }
        int[] words = new int[(int) tokens];
        for (int d = 0; d < docIds.length; d++) {
            System.arraycopy(sorted.get(d)._2(), 0, words, starts[d], sorted.get(d)._2().length);
        }
        return Corpus.of(starts, words, docIds, vocabularySize);
    }

    /** Every document gathered on the driver as one corpus in id order (small corpora and tests only). */
    public Corpus collect() {
        return corpus(documents.collect(), vocabularySize);
    }
}
