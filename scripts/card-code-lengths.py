#!/usr/bin/env python3
"""Derives the Huffman code every link preview card is written with (CardCode.swift).

Usage: scripts/card-code-lengths.py OUTPUT_FOLDER [OUTPUT_FOLDER ...] > lengths.txt

Reads every preview.png under the given built sites, turns each card's filtered rows back
into the symbols RunDeflate writes for them (a run of one byte: a literal, then matches of
up to 258 bytes at distance 1, then at most two more literals), counts them, gives every
symbol a small share more (so a card unlike these still has a code for everything, and no
code is longer than 13 bits), and prints Huffman code lengths (limit 15) for the 286
literal/length symbols, 16 a line, ready to paste into CardCode.swift.

The symbols do not depend on the code they are written with, so cards written with any
earlier code train the next one. docs/performance.md says which corpus trained the current one.
"""
import collections
import glob
import heapq
import struct
import sys
import zlib

LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
               35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]


def length_code(length):
    return 257 + max(i for i, base in enumerate(LENGTH_BASE) if base <= length)


def filtered_rows(path):
    data = open(path, 'rb').read()
    offset, idat = 8, b''
    while offset < len(data):
        size, = struct.unpack('>I', data[offset:offset + 4])
        if data[offset + 4:offset + 8] == b'IDAT':
            idat += data[offset + 8:offset + 8 + size]
        offset += 12 + size
    return zlib.decompress(idat)


def count_symbols(raw, counts):
    i, n = 0, len(raw)
    while i < n:
        byte, j = raw[i], i + 1
        while j < n and raw[j] == byte:
            j += 1
        left = j - i - 1
        counts[byte] += 1
        while left >= 3:
            take = min(left, 258)
            counts[length_code(take)] += 1
            left -= take
        counts[byte] += left
        i = j
    counts[256] += 1


def huffman_lengths(weights, limit):
    while True:
        heap = [(weight, symbol, [symbol]) for symbol, weight in weights.items()]
        heapq.heapify(heap)
        depth, tie = collections.Counter(), len(heap)
        while len(heap) > 1:
            a, b = heapq.heappop(heap), heapq.heappop(heap)
            for symbol in a[2] + b[2]:
                depth[symbol] += 1
            tie += 1
            heapq.heappush(heap, (a[0] + b[0], tie, a[2] + b[2]))
        if max(depth.values()) <= limit:
            return depth
        weights = {symbol: (weight + 1) // 2 for symbol, weight in weights.items()}


def main():
    counts = collections.Counter()
    cards = [path for folder in sys.argv[1:] for path in glob.glob(folder + '/**/preview.png', recursive=True)]
    if not cards:
        sys.exit('no preview.png under ' + ' '.join(sys.argv[1:]))
    for path in sorted(cards):
        count_symbols(filtered_rows(path), counts)
    total = sum(counts.values())
    share = max(1, total // 286 // 100)
    weights = {symbol: counts[symbol] + share for symbol in range(286)}
    lengths = huffman_lengths(weights, 15)
    print(f'// {len(cards)} cards, {total} symbols; longest code {max(lengths.values())} bits')
    row = [lengths[symbol] for symbol in range(286)]
    for start in range(0, 286, 16):
        print(', '.join(str(length) for length in row[start:start + 16]) + ',')


if __name__ == '__main__':
    main()
