/*
 * Narration Studio's bindings to eSpeak NG, compiled with it to WebAssembly (build.sh).
 * Copyright (C) 2026 Narration Studio contributors. GPL-3.0-or-later.
 *
 * Plain C functions that JavaScript calls with pointers (electron/core/engine/espeak/
 * espeak-wasm.ts). Synthesis collects its audio and events in buffers here, which JavaScript
 * reads once the call returns: no JavaScript runs inside a synthesis.
 *
 * The calls to eSpeak mirror the wasm2js build of @echogarden/espeak-ng-emscripten 0.3.5 (the
 * engine's eSpeak until 2026-12-01), so both speak alike: eSpeak initialised for synchronous
 * output with 100 ms buffers, phoneme events and IPA; a synthesis applies the rate, volume,
 * pitch and range set since (in that order) and reads UTF-8, SSML and [[phonemes]]; the phoneme
 * trace and text-to-phonemes read the text with eSpeak's automatic encoding, IPA phonemes
 * joined by "_".
 */

#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "espeak-ng/speak_lib.h"

#define KEEP EMSCRIPTEN_KEEPALIVE

/** IPA (bit 1), phonemes separated by '_' (bits 8–23). */
#define IPA_UNDERSCORE_MODE ((1 << 1) | ('_' << 8))

enum { RATE, VOLUME, PITCH, RANGE, PARAMETER_COUNT };
static int parameters[PARAMETER_COUNT] = { espeakRATE_NORMAL, 100, 50, 50 };

/** The last synthesis's audio (16-bit mono at the engine's rate) and events. */
static short *samples;
static int sample_count, sample_capacity;
/** Four ints per event: type, text position (characters, from 1), length, audio position (ms). */
enum { EVENT_INTS = 4 };
static int *events;
static int event_count, event_capacity;

static int grow(void **buffer, int *capacity, int needed, int item_size) {
	if (needed <= *capacity) return 1;
	int capacity2 = *capacity > 0 ? *capacity : 4096;
	while (capacity2 < needed) capacity2 *= 2;
	void *moved = realloc(*buffer, (size_t)capacity2 * item_size);
	if (!moved) return 0;
	*buffer = moved;
	*capacity = capacity2;
	return 1;
}

static int collect(short *wav, int count, espeak_EVENT *event) {
	if (wav && count > 0) {
		if (!grow((void **)&samples, &sample_capacity, sample_count + count, sizeof(short))) return 1;
		memcpy(samples + sample_count, wav, (size_t)count * sizeof(short));
		sample_count += count;
	}
	for (; event && event->type != espeakEVENT_LIST_TERMINATED; event++) {
		if (!grow((void **)&events, &event_capacity, (event_count + 1) * EVENT_INTS, sizeof(int))) return 1;
		int *at = events + event_count * EVENT_INTS;
		at[0] = event->type;
		at[1] = event->text_position;
		at[2] = event->length;
		at[3] = event->audio_position;
		event_count++;
	}
	return 0;
}

/** Starts eSpeak with its data under PATH_ESPEAK_DATA; returns the sample rate (Hz), or -1. */
KEEP int ns_initialize(void) {
	return espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL,
		espeakINITIALIZE_PHONEME_EVENTS | espeakINITIALIZE_PHONEME_IPA | espeakINITIALIZE_DONT_EXIT);
}

/** 0 when loaded; otherwise eSpeak keeps the voice it had. */
KEEP int ns_set_voice_by_name(const char *name) {
	return espeak_SetVoiceByName(name);
}

/** The voice eSpeak picks for a language code (`name` empty). */
KEEP int ns_set_voice_by_language(const char *language) {
	espeak_VOICE properties;
	memset(&properties, 0, sizeof properties);
	properties.name = "";
	properties.languages = language;
	return espeak_SetVoiceByProperties(&properties);
}

/** Rate (0), volume (1), pitch (2) or range (3): stored; the next synthesis applies it. */
KEEP void ns_set_parameter(int which, int value) {
	if (which >= 0 && which < PARAMETER_COUNT) parameters[which] = value;
}

/** Speaks `text` (UTF-8, SSML, [[phonemes]]) into the buffers below; returns eSpeak's status. */
KEEP int ns_synthesize(const char *text) {
	sample_count = 0;
	event_count = 0;
	espeak_SetSynthCallback(collect);
	espeak_SetParameter(espeakRATE, parameters[RATE], 0);
	espeak_SetParameter(espeakVOLUME, parameters[VOLUME], 0);
	espeak_SetParameter(espeakPITCH, parameters[PITCH], 0);
	espeak_SetParameter(espeakRANGE, parameters[RANGE], 0);
	int status = espeak_Synth(text, 0, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakSSML | espeakPHONEMES, NULL, NULL);
	espeak_SetSynthCallback(NULL);
	return status;
}

/** The end of the memory malloc has taken so far (everything after it is still zero, or free). */
KEEP void *ns_heap_end(void) { return sbrk(0); }

KEEP short *ns_samples(void) { return samples; }
KEEP int ns_sample_count(void) { return sample_count; }
KEEP int *ns_events(void) { return events; }
KEEP int ns_event_count(void) { return event_count; }

/**
 * eSpeak's phoneme trace while it speaks `text` (the audio is dropped): a malloc'd UTF-8
 * string the caller frees, or NULL.
 */
KEEP char *ns_phoneme_trace(const char *text) {
	char *trace = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&trace, &length);
	if (!out) return NULL;
	espeak_SetSynthCallback(NULL);
	espeak_SetPhonemeTrace(IPA_UNDERSCORE_MODE, out);
	espeak_Synth(text, 0, 0, POS_CHARACTER, 0, 0, NULL, NULL);
	espeak_SetPhonemeTrace(0, NULL);
	fclose(out);
	return trace;
}

static int append(char **text, size_t *length, size_t *capacity, const char *more) {
	size_t add = strlen(more);
	if (*length + add + 1 > *capacity) {
		size_t capacity2 = *capacity > 0 ? *capacity : 256;
		while (capacity2 < *length + add + 1) capacity2 *= 2;
		char *moved = realloc(*text, capacity2);
		if (!moved) return 0;
		*text = moved;
		*capacity = capacity2;
	}
	memcpy(*text + *length, more, add + 1);
	*length += add;
	return 1;
}

/**
 * The phonemes of every clause of `text` (espeak_TextToPhonemes until the text ends), clauses
 * joined by " | ": a malloc'd UTF-8 string the caller frees, or NULL.
 */
KEEP char *ns_text_to_phonemes(const char *text, int ipa) {
	int mode = (ipa ? (1 << 1) : 0) | ('_' << 8);
	const void *rest = text;
	char *result = NULL;
	size_t length = 0, capacity = 0;
	if (!append(&result, &length, &capacity, "")) return NULL;
	while (rest != NULL) {
		const char *phonemes = espeak_TextToPhonemes(&rest, espeakCHARS_AUTO, mode);
		if (!append(&result, &length, &capacity, phonemes ? phonemes : "")) break;
		if (rest != NULL && !append(&result, &length, &capacity, " | ")) break;
	}
	return result;
}

/**
 * eSpeak's voices, one a line: identifier, a tab, then its languages (priority, a space, the
 * code) separated by tabs. A malloc'd string the caller frees, or NULL.
 */
KEEP char *ns_list_voices(void) {
	const espeak_VOICE **voices = espeak_ListVoices(NULL);
	char *result = NULL;
	size_t length = 0, capacity = 0;
	char priority[8];
	if (!append(&result, &length, &capacity, "")) return NULL;
	for (; voices && *voices; voices++) {
		const espeak_VOICE *voice = *voices;
		append(&result, &length, &capacity, voice->identifier ? voice->identifier : "");
		for (const char *at = voice->languages; at && *at; at += strlen(at + 1) + 2) {
			snprintf(priority, sizeof priority, "\t%d ", (unsigned char)*at);
			append(&result, &length, &capacity, priority);
			append(&result, &length, &capacity, at + 1);
		}
		append(&result, &length, &capacity, "\n");
	}
	return result;
}
